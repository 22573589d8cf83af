// The /change-password page: why a change is required (a temporary password or the
// administrator's request), the form, and once changed the note, moving on to the dashboard
// when the change was required.
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, useNavigate, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { PageHeading } from '../../ui/page-heading.tsx';
import { FormError, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { Alert, Button, Card, Field, inputClass } from '../../ui/form.tsx';
import { ChangePasswordFormSchema, MIN_PASSWORD } from './schemas.ts';
import { screenTitle } from '../../platform/screen/navigation.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { errorTexts } from './form-errors.ts';

export interface ChangePasswordData {
  temporary: boolean;
  required: boolean;
}

export type ChangePasswordAction = ActionAnswer & { done?: boolean; wasRequired?: boolean };

export function ChangePasswordScreen({
  data: { temporary, required },
  actionData,
}: {
  data: ChangePasswordData;
  actionData: ChangePasswordAction | undefined;
}) {
  const t = useT();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const done = actionData?.done === true;
  const goHome = done && actionData.wasRequired === true;

  const [form, fields] = useForm({
    id: 'change-password',
    lastResult: actionData?.result,
    constraint: getZodConstraint(ChangePasswordFormSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordFormSchema }),
  });

  useEffect(() => {
    if (!goHome) return;
    const timer = setTimeout(() => navigate('/'), 2000);
    return () => clearTimeout(timer);
  }, [goHome, navigate]);

  return (
    <div className="mx-auto max-w-lg">
      {/* Without JavaScript the browser follows this after 2 seconds. */}
      {goHome ? <meta httpEquiv="refresh" content="2;url=/" /> : null}
      <PageHeading title={t(screenTitle('/change-password'))} />
      {required && !done ? (
        <div className="mb-4">
          <Alert tone="warning" title={t('Password change required')}>
            {temporary
              ? t('You signed in with a temporary password. Choose a new password before you continue.')
              : t('Your administrator requires you to choose a new password before you continue.')}
          </Alert>
        </div>
      ) : null}
      {done ? (
        <div className="mb-4">
          <Alert tone="success" title={t('Password changed successfully!')}>
            {goHome ? t('Taking you to the dashboard…') : t('Use your new password the next time you sign in.')}
          </Alert>
        </div>
      ) : null}
      {form.errors?.length ? (
        <div className="mb-4">
          <FormError title={t('Failed to change password')} errors={errorTexts(t, form.errors)} />
        </div>
      ) : null}
      <Card>
        <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
          <Field
            label={t('Current Password')}
            id={fields.currentPassword.id}
            error={errorTexts(t, fields.currentPassword.errors)}
          >
            <input
              {...getInputProps(fields.currentPassword, { type: 'password' })}
              autoComplete="current-password"
              className={inputClass}
            />
          </Field>
          <Field
            label={t('New Password')}
            id={fields.newPassword.id}
            error={errorTexts(t, fields.newPassword.errors)}
            hint={t('At least {min} characters. Your new password must be different from your current password.', {
              min: MIN_PASSWORD,
            })}
          >
            <input
              {...getInputProps(fields.newPassword, { type: 'password' })}
              autoComplete="new-password"
              className={inputClass}
            />
          </Field>
          <Field
            label={t('Confirm New Password')}
            id={fields.confirmPassword.id}
            error={errorTexts(t, fields.confirmPassword.errors)}
          >
            <input
              {...getInputProps(fields.confirmPassword, { type: 'password' })}
              autoComplete="new-password"
              className={inputClass}
            />
          </Field>
          <Button type="submit" disabled={navigation.state === 'submitting'}>
            {navigation.state === 'submitting' ? t('Changing...') : t('Change Password')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
