import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigate, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { PageHeading } from '../components/layout/app-shell.tsx';
import { Alert, Button, Card, Field, inputClass } from '../components/ui/form.tsx';
import { readFormData } from '../http/form.server.ts';
import { requireAuth, serviceContext } from '../http/session.server.ts';
import { ChangePasswordFormSchema, MIN_PASSWORD } from '../lib/auth-schemas.ts';
import { changePassword } from '../services/auth.server.ts';
import { isDomainError } from '../services/errors.ts';

export const meta: MetaFunction = () => [{ title: 'Change Password · Group Finance Hub' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context, { allowPasswordChange: true });
  return json({ temporary: auth.user.isTemporaryPassword, required: auth.mustChangePassword });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireAuth(request, context, { allowPasswordChange: true });
  const submission = parseWithZod(await readFormData(request), { schema: ChangePasswordFormSchema });
  const hidden = { hideFields: ['currentPassword', 'newPassword', 'confirmPassword'] };
  if (submission.status !== 'success') return json({ result: submission.reply(hidden), done: false }, { status: 400 });
  try {
    const { currentPassword, newPassword } = submission.value;
    await changePassword(serviceContext(request, context, auth), auth.user.id, { currentPassword, newPassword }, auth.session.id);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const fieldErrors = Object.fromEntries((error.errors ?? []).map((e) => [e.field, [e.message]]));
    return json(
      { result: submission.reply({ ...hidden, fieldErrors, formErrors: error.errors ? [] : [error.message || 'Failed to change password'] }), done: false },
      { status: error.status },
    );
  }
  return json({ result: submission.reply({ resetForm: true }), done: true, wasRequired: auth.mustChangePassword });
}

export default function ChangePasswordPage() {
  const { temporary, required } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const done = actionData?.done === true;
  const goHome = done && 'wasRequired' in actionData && actionData.wasRequired;

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
      <PageHeading title="Change Password" />
      {required && !done ? (
        <div className="mb-4">
          <Alert tone="warning" title="Password change required">
            {temporary
              ? 'You signed in with a temporary password. Choose a new password before you continue.'
              : 'Your administrator requires you to choose a new password before you continue.'}
          </Alert>
        </div>
      ) : null}
      {done ? (
        <div className="mb-4">
          <Alert tone="success" title="Password changed successfully!">
            {goHome ? 'Taking you to the dashboard…' : 'Use your new password the next time you sign in.'}
          </Alert>
        </div>
      ) : null}
      {form.errors?.length ? (
        <div className="mb-4">
          <Alert title="Failed to change password">{form.errors[0]}</Alert>
        </div>
      ) : null}
      <Card>
        <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
          <Field label="Current Password" id={fields.currentPassword.id} error={fields.currentPassword.errors}>
            <input {...getInputProps(fields.currentPassword, { type: 'password' })} autoComplete="current-password" className={inputClass} />
          </Field>
          <Field
            label="New Password"
            id={fields.newPassword.id}
            error={fields.newPassword.errors}
            hint={`At least ${MIN_PASSWORD} characters. Your new password must be different from your current password.`}
          >
            <input {...getInputProps(fields.newPassword, { type: 'password' })} autoComplete="new-password" className={inputClass} />
          </Field>
          <Field label="Confirm New Password" id={fields.confirmPassword.id} error={fields.confirmPassword.errors}>
            <input {...getInputProps(fields.confirmPassword, { type: 'password' })} autoComplete="new-password" className={inputClass} />
          </Field>
          <Button type="submit" disabled={navigation.state === 'submitting'}>
            {navigation.state === 'submitting' ? 'Changing...' : 'Change Password'}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
