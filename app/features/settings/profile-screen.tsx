// The /profile page: the profile fields in read or edit mode (?edit=1), the change-password
// section with its own edit mode (?password=1), and the account information card. Both edit
// modes are links, so they work without JavaScript and may be open at once.
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation } from '@remix-run/react';
import { PageHeading } from '../../ui/page-heading.tsx';
import { FormError, resultFor, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { Button, Card, Field, inputClass } from '../../ui/form.tsx';
import { MIN_PASSWORD } from '../auth/index.ts';
import { ROLE_LABELS } from '../../platform/lib/permissions.ts';
import { PASSWORD_TOO_SHORT, ProfilePasswordSchema, ProfileSchema } from './profile-schemas.ts';
import type { ProfileView } from './profile.server.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import type { Translate } from '../../platform/i18n/messages.ts';
import { EMAIL_MESSAGE } from '../auth/index.ts';

/** What the screen's loader gives it. */
export interface ProfileData {
  profile: ProfileView;
  editing: boolean;
  changingPassword: boolean;
  twoFactorEnabled: boolean;
}

/** A form error in the reader's language: the schemas' fixed English texts are messages. */
function errorText(t: Translate, error: string): string {
  if (error === PASSWORD_TOO_SHORT) return t('New password must be at least {min} characters', { min: MIN_PASSWORD });
  // The auth schema's, which this page's form checks too.
  if (error === EMAIL_MESSAGE) return t('Please enter a valid email address');
  return t(error);
}

function errorTexts(t: Translate, errors: string[] | undefined): string[] | undefined {
  return errors?.map((error) => errorText(t, error));
}

/** `data`: the value is the user's own (a name, an address), not a message. */
function Row({
  label,
  value,
  testId,
  data = false,
}: {
  label: string;
  value: React.ReactNode;
  testId?: string;
  data?: boolean;
}) {
  const t = useT();
  return (
    <div className="grid grid-cols-3 gap-3 py-2">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd
        className="col-span-2 text-sm text-slate-900"
        data-testid={testId}
        translate={data && value ? 'no' : undefined}
      >
        {value || <span className="text-slate-500">{t('Not set')}</span>}
      </dd>
    </div>
  );
}

/** Keeps the other section's edit state in links (both may be open at once). */
function href(editing: boolean, changingPassword: boolean): string {
  const params = new URLSearchParams();
  if (editing) params.set('edit', '1');
  if (changingPassword) params.set('password', '1');
  const query = params.toString();
  return query ? `/profile?${query}` : '/profile';
}

export function ProfileScreen({
  data: { profile, editing, changingPassword, twoFactorEnabled },
  actionData,
}: {
  data: ProfileData;
  actionData: ActionAnswer | undefined;
}) {
  const { user } = profile;
  const t = useT();
  const f = useFormats();
  const navigation = useNavigation();
  const submittingIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;

  const [form, fields] = useForm({
    id: 'profile-form',
    lastResult: resultFor(actionData, 'profile'),
    defaultValue: {
      username: user.username,
      email: user.email,
      fullName: user.fullName ?? '',
      position: user.position ?? '',
      phoneNumber: user.phoneNumber ?? '',
    },
    constraint: getZodConstraint(ProfileSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
  });

  const [pwForm, pw] = useForm({
    id: 'profile-password-form',
    lastResult: resultFor(actionData, 'password'),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfilePasswordSchema }),
  });

  const passwordStatus = user.isTemporaryPassword
    ? t('Temporary password (must be changed)')
    : user.passwordChangeRequired
      ? t('Change required')
      : profile.passwordChangedAt
        ? t('Set · last changed {date}', { date: f.instantDate(profile.passwordChangedAt) })
        : t('Set');

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeading title={t('My Profile')} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title={t('Profile Information')}>
            {editing ? (
              <Form method="post" {...getFormProps(form)} noValidate className="space-y-4" data-testid="profile-form">
                <input type="hidden" name="intent" value="profile" />
                <FormError errors={errorTexts(t, form.errors)} />
                <Field label={t('Username')} id={fields.username.id} error={errorTexts(t, fields.username.errors)}>
                  <input
                    {...getInputProps(fields.username, { type: 'text' })}
                    autoComplete="username"
                    className={inputClass}
                  />
                </Field>
                <Field label={t('Email')} id={fields.email.id} error={errorTexts(t, fields.email.errors)}>
                  <input
                    {...getInputProps(fields.email, { type: 'email' })}
                    autoComplete="email"
                    className={inputClass}
                  />
                </Field>
                <Field label={t('Full Name')} id={fields.fullName.id} error={errorTexts(t, fields.fullName.errors)}>
                  <input
                    {...getInputProps(fields.fullName, { type: 'text' })}
                    autoComplete="name"
                    className={inputClass}
                  />
                </Field>
                <Field label={t('Position')} id={fields.position.id} error={errorTexts(t, fields.position.errors)}>
                  <input
                    {...getInputProps(fields.position, { type: 'text' })}
                    autoComplete="organization-title"
                    className={inputClass}
                  />
                </Field>
                <Field
                  label={t('Phone Number')}
                  id={fields.phoneNumber.id}
                  error={errorTexts(t, fields.phoneNumber.errors)}
                >
                  <input
                    {...getInputProps(fields.phoneNumber, { type: 'tel' })}
                    autoComplete="tel"
                    className={inputClass}
                  />
                </Field>
                <div className="flex gap-2">
                  <Button type="submit" disabled={submittingIntent === 'profile'}>
                    {submittingIntent === 'profile' ? t('Saving...') : t('Save Changes')}
                  </Button>
                  {/* Cancel is a fresh load of the read mode: fields and errors reset. */}
                  <Link to={href(false, changingPassword)} className="btn-secondary">
                    {t('Cancel')}
                  </Link>
                </div>
              </Form>
            ) : (
              <>
                <dl className="divide-y divide-slate-100" data-testid="profile-details">
                  <Row data label={t('Username')} value={user.username} testId="profile-username" />
                  <Row data label={t('Email')} value={user.email} testId="profile-email" />
                  <Row data label={t('Full Name')} value={user.fullName} testId="profile-full-name" />
                  <Row data label={t('Position')} value={user.position} testId="profile-position" />
                  <Row data label={t('Phone Number')} value={user.phoneNumber} testId="profile-phone" />
                </dl>
                <Link to={href(true, changingPassword)} className="mt-4 btn-primary">
                  {t('Edit Profile')}
                </Link>
              </>
            )}
          </Card>

          <Card title={t('Change Password')}>
            {changingPassword ? (
              <Form
                method="post"
                {...getFormProps(pwForm)}
                noValidate
                className="space-y-4"
                data-testid="profile-password-form"
              >
                <input type="hidden" name="intent" value="password" />
                <FormError errors={errorTexts(t, pwForm.errors)} />
                <Field
                  label={t('Current Password')}
                  id={pw.currentPassword.id}
                  error={errorTexts(t, pw.currentPassword.errors)}
                >
                  <input
                    {...getInputProps(pw.currentPassword, { type: 'password' })}
                    autoComplete="current-password"
                    className={inputClass}
                  />
                </Field>
                <Field
                  label={t('New Password')}
                  id={pw.newPassword.id}
                  error={errorTexts(t, pw.newPassword.errors)}
                  hint={t('At least {min} characters; use upper case, lower case and digits.', { min: MIN_PASSWORD })}
                >
                  <input
                    {...getInputProps(pw.newPassword, { type: 'password' })}
                    autoComplete="new-password"
                    className={inputClass}
                  />
                </Field>
                <Field
                  label={t('Confirm New Password')}
                  id={pw.confirmPassword.id}
                  error={errorTexts(t, pw.confirmPassword.errors)}
                >
                  <input
                    {...getInputProps(pw.confirmPassword, { type: 'password' })}
                    autoComplete="new-password"
                    className={inputClass}
                  />
                </Field>
                <div className="flex gap-2">
                  <Button type="submit" disabled={submittingIntent === 'password'}>
                    {submittingIntent === 'password' ? t('Changing...') : t('Change Password')}
                  </Button>
                  <Link to={href(editing, false)} className="btn-secondary">
                    {t('Cancel')}
                  </Link>
                </div>
              </Form>
            ) : (
              <>
                <p className="text-sm text-slate-600">
                  {t('Choose a new password of at least {min} characters. Your other sessions end when it changes.', {
                    min: MIN_PASSWORD,
                  })}
                </p>
                <Link to={href(editing, true)} className="mt-4 btn-secondary">
                  {t('Change Password')}
                </Link>
              </>
            )}
          </Card>

          <Card title={t('Two-Factor Authentication')}>
            <p className="text-sm text-slate-600" data-testid="profile-two-factor">
              {twoFactorEnabled
                ? t('On: signing in needs a code from your authenticator app.')
                : t('Off: add a code from an authenticator app on your phone to your password.')}
            </p>
            <Link to="/two-factor" className="mt-4 btn-secondary">
              {twoFactorEnabled ? t('Manage two-factor authentication') : t('Set up two-factor authentication')}
            </Link>
          </Card>
        </div>

        <Card title={t('Account Information')} className="h-fit">
          <dl className="divide-y divide-slate-100" data-testid="account-info">
            <Row label={t('User ID')} value={String(user.id)} />
            <Row
              label={t('Account Type')}
              value={
                user.role === 'owner'
                  ? t(ROLE_LABELS.owner)
                  : t('Regular User ({role})', { role: t(ROLE_LABELS[user.role]) })
              }
            />
            <Row label={t('Company Access')} value={profile.companyName ?? t('All Companies')} />
            <Row label={t('Password Status')} value={passwordStatus} />
          </dl>
        </Card>
      </div>
    </div>
  );
}
