// The User Management forms: Create New User, Edit User and User Permissions. Validated by
// the same zod schemas in the browser (conform, with JavaScript) and on the server.
import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation } from '@remix-run/react';
import { ROLE_LABELS, type PermissionFlag, type Role } from '../../platform/lib/permissions.ts';
import { Button, Field, inputClass } from '../../ui/form.tsx';
import { MIN_PASSWORD } from '../auth/index.ts';
import { CreateUserFormSchema, EditUserFormSchema, PASSWORD_TOO_SHORT, PERMISSION_GROUPS } from './schemas.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import type { Translate } from '../../platform/i18n/messages.ts';

export interface CompanyChoice {
  id: number;
  name: string;
}

interface UserFormProps {
  companies: CompanyChoice[];
  roles: Role[];
  allCompanies: boolean;
  lastResult?: SubmissionResult<string[]> | null;
  cancelTo: string;
}

const cancelClass = 'btn-secondary';

/** A form's error in the reader's language: the schemas' and services' texts are messages. */
export function userErrorText(t: Translate, error: string): string {
  if (error === PASSWORD_TOO_SHORT) return t('Password must be at least {min} characters', { min: MIN_PASSWORD });
  return t(error);
}

function errorTexts(t: Translate, errors: string[] | undefined): string[] | undefined {
  return errors?.map((error) => userErrorText(t, error));
}

function useSubmitting(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}

/** Cancel (back to the list, keeping its state) and the submit button of one intent. */
function FormFooter({
  intent,
  cancelTo,
  label,
  busyLabel,
}: {
  intent: string;
  cancelTo: string;
  label: string;
  busyLabel: string;
}) {
  const t = useT();
  const submitting = useSubmitting(intent);
  return (
    <div className="flex justify-end gap-2">
      <Link to={cancelTo} preventScrollReset className={cancelClass}>
        {t('Cancel')}
      </Link>
      <Button type="submit" disabled={submitting}>
        {submitting ? busyLabel : label}
      </Button>
    </div>
  );
}

function RoleSelect({ meta, roles }: { meta: UserField; roles: Role[] }) {
  const t = useT();
  return (
    <select {...getSelectProps(meta)} className={inputClass}>
      {!meta.initialValue ? <option value="">{t('Select role')}</option> : null}
      {roles.map((role) => (
        <option key={role} value={role}>
          {t(ROLE_LABELS[role])}
        </option>
      ))}
    </select>
  );
}

function CompanySelect({
  meta,
  companies,
  allCompanies,
}: {
  meta: UserField;
  companies: CompanyChoice[];
  allCompanies: boolean;
}) {
  const t = useT();
  return (
    <select {...getSelectProps(meta)} className={inputClass}>
      {allCompanies ? <option value="all">{t('All Companies')}</option> : null}
      {companies.map((c) => (
        <option key={c.id} value={String(c.id)} translate="no">
          {c.name}
        </option>
      ))}
    </select>
  );
}

// Both forms' fields (their form types differ, so the form type stays open here).
type UserField = FieldMetadata<string | undefined, Record<string, unknown>, string[]>;
type UserFields = Record<'username' | 'email' | 'role' | 'companyId', UserField>;

function NameFields({ fields }: { fields: UserFields }) {
  const t = useT();
  return (
    <>
      <Field label={t('Username')} id={fields.username.id} error={errorTexts(t, fields.username.errors)}>
        <input {...getInputProps(fields.username, { type: 'text' })} autoComplete="off" className={inputClass} />
      </Field>
      <Field label={t('Email')} id={fields.email.id} error={errorTexts(t, fields.email.errors)}>
        <input {...getInputProps(fields.email, { type: 'email' })} autoComplete="off" className={inputClass} />
      </Field>
    </>
  );
}

function AccessFields({
  fields,
  roles,
  companies,
  allCompanies,
}: {
  fields: UserFields;
  roles: Role[];
  companies: CompanyChoice[];
  allCompanies: boolean;
}) {
  const t = useT();
  return (
    <>
      <Field label={t('Role')} id={fields.role.id} error={errorTexts(t, fields.role.errors)}>
        <RoleSelect meta={fields.role} roles={roles} />
      </Field>
      <Field label={t('Company')} id={fields.companyId.id} error={errorTexts(t, fields.companyId.errors)}>
        <CompanySelect meta={fields.companyId} companies={companies} allCompanies={allCompanies} />
      </Field>
    </>
  );
}

export function CreateUserForm({ companies, roles, allCompanies, lastResult, cancelTo }: UserFormProps) {
  const t = useT();
  const [form, fields] = useForm({
    id: 'create-user',
    lastResult,
    defaultValue: {
      role: roles.includes('viewer') ? 'viewer' : roles[0],
      companyId: allCompanies ? 'all' : String(companies[0]?.id ?? ''),
    },
    constraint: getZodConstraint(CreateUserFormSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateUserFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="space-y-4" preventScrollReset>
      <input type="hidden" name="intent" value="create" />
      <div className="grid gap-4 sm:grid-cols-2">
        <NameFields fields={fields} />
        <Field
          label={t('Password')}
          id={fields.password.id}
          error={errorTexts(t, fields.password.errors)}
          hint={t('At least {min} characters.', { min: MIN_PASSWORD })}
        >
          <input
            {...getInputProps(fields.password, { type: 'password' })}
            autoComplete="new-password"
            className={inputClass}
          />
        </Field>
        <AccessFields fields={fields} roles={roles} companies={companies} allCompanies={allCompanies} />
        <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-700">
          <input
            {...getInputProps(fields.isTemporaryPassword, { type: 'checkbox' })}
            className="h-4 w-4 rounded border-slate-300"
          />
          {t('Require password change at first sign-in')}
        </label>
      </div>
      <FormFooter intent="create" cancelTo={cancelTo} label={t('Create User')} busyLabel={t('Creating...')} />
    </Form>
  );
}

export interface EditableUser {
  id: number;
  username: string;
  email: string;
  role: Role;
  companyId: number | null;
}

export function EditUserForm({
  user,
  companies,
  roles,
  allCompanies,
  lastResult,
  cancelTo,
}: UserFormProps & { user: EditableUser }) {
  const t = useT();
  // The user's current role stays selectable (an admin editing an editor keeps its role).
  const roleList = roles.includes(user.role) ? roles : [user.role, ...roles];
  const [form, fields] = useForm({
    id: `edit-user-${user.id}`,
    lastResult,
    defaultValue: {
      username: user.username,
      email: user.email,
      role: user.role,
      companyId: user.companyId === null ? 'all' : String(user.companyId),
    },
    constraint: getZodConstraint(EditUserFormSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EditUserFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="space-y-4" preventScrollReset>
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="id" value={user.id} />
      <div className="grid gap-4 sm:grid-cols-2">
        <NameFields fields={fields} />
        <AccessFields fields={fields} roles={roleList} companies={companies} allCompanies={allCompanies} />
      </div>
      <FormFooter intent="update" cancelTo={cancelTo} label={t('Update User')} busyLabel={t('Saving...')} />
    </Form>
  );
}

/**
 * The ten flags in two groups. Flags the user's role already grants (a user holds the role's
 * baseline plus their own flags, docs/security.md) show checked and locked, and are not posted.
 */
export function PermissionsForm({
  user,
  baseline,
  cancelTo,
}: {
  user: EditableUser & Record<PermissionFlag, boolean>;
  baseline: PermissionFlag[];
  cancelTo: string;
}) {
  const t = useT();
  const fromRole = new Set(baseline);
  return (
    <Form method="post" className="space-y-4" preventScrollReset>
      <input type="hidden" name="intent" value="permissions" />
      <input type="hidden" name="id" value={user.id} />
      <p className="text-sm text-slate-600">
        {t('Permissions of {username} ({role}).', { username: user.username, role: t(ROLE_LABELS[user.role]) })}{' '}
        {t('Permissions included in the role are always on.')}
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        {PERMISSION_GROUPS.map((group) => (
          <fieldset key={group.title} className="rounded-md border border-slate-200 p-4">
            <legend className="px-1 text-sm font-semibold text-slate-900">{t(group.title)}</legend>
            <div className="space-y-2">
              {group.flags.map(({ flag, label }) => {
                const locked = fromRole.has(flag);
                return (
                  <label key={flag} className="flex items-center gap-2 text-sm text-slate-700">
                    <input
                      type="checkbox"
                      name={locked ? undefined : flag}
                      defaultChecked={locked || user[flag] === true}
                      disabled={locked}
                      className="h-4 w-4 rounded border-slate-300 text-blue-700"
                    />
                    {t(label)}
                    {locked ? <span className="text-xs text-slate-500">{t('(from role)')}</span> : null}
                  </label>
                );
              })}
            </div>
          </fieldset>
        ))}
      </div>
      <FormFooter intent="permissions" cancelTo={cancelTo} label={t('Update Permissions')} busyLabel={t('Saving...')} />
    </Form>
  );
}
