// /change-password: the page a temporary password (or an administrator's "change required")
// leads to before anything else opens, and where anyone may change their own password.
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigate, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { PageHeading } from '../ui/page-heading.tsx';
import { FormError, type ActionAnswer } from '../platform/screen/action-result.tsx';
import { Alert, Button, Card, Field, inputClass } from '../ui/form.tsx';
import { loadScreen, screenAction } from '../platform/screen/screen.server.ts';
import { intent } from '../platform/screen/intent.ts';
import { ChangePasswordFormSchema, MIN_PASSWORD } from '../features/auth/schemas.ts';
import { changePassword } from '../features/auth/auth.server.ts';
import { allow, screenAccess } from '../platform/screen/route-access.ts';
import { screenTitle } from '../platform/screen/navigation.ts';

// Remix keeps only Set-Cookie from an action on a full page; pass the throttle's Retry-After
// (too many wrong current passwords) on too.
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
};

export const meta: MetaFunction = () => [{ title: `${screenTitle('/change-password')} · Group Finance Hub` }];

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ user, auth }) =>
    json({ temporary: user.isTemporaryPassword, required: auth.mustChangePassword }),
  );

const intents = {
  change: intent({
    allow: allow.signedIn,
    schema: ChangePasswordFormSchema,
    hideFields: ['currentPassword', 'newPassword', 'confirmPassword'],
    run: async ({ currentPassword, newPassword }, screen, _form, reply) => {
      await changePassword(screen.ctx, screen.user.id, { currentPassword, newPassword }, screen.auth.session.id);
      // The page says so itself (and, when the change was required, moves on to the dashboard).
      return json({
        intent: 'change',
        result: reply({ resetForm: true }),
        done: true,
        wasRequired: screen.auth.mustChangePassword,
      });
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) => screenAction(args, intents, { fallback: 'change' });

export default function ChangePasswordPage() {
  const { temporary, required } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionAnswer & { done?: boolean; wasRequired?: boolean }>();
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
      <PageHeading title={screenTitle('/change-password')} />
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
          <FormError title="Failed to change password" errors={form.errors} />
        </div>
      ) : null}
      <Card>
        <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
          <Field label="Current Password" id={fields.currentPassword.id} error={fields.currentPassword.errors}>
            <input
              {...getInputProps(fields.currentPassword, { type: 'password' })}
              autoComplete="current-password"
              className={inputClass}
            />
          </Field>
          <Field
            label="New Password"
            id={fields.newPassword.id}
            error={fields.newPassword.errors}
            hint={`At least ${MIN_PASSWORD} characters. Your new password must be different from your current password.`}
          >
            <input
              {...getInputProps(fields.newPassword, { type: 'password' })}
              autoComplete="new-password"
              className={inputClass}
            />
          </Field>
          <Field label="Confirm New Password" id={fields.confirmPassword.id} error={fields.confirmPassword.errors}>
            <input
              {...getInputProps(fields.confirmPassword, { type: 'password' })}
              autoComplete="new-password"
              className={inputClass}
            />
          </Field>
          <Button type="submit" disabled={navigation.state === 'submitting'}>
            {navigation.state === 'submitting' ? 'Changing...' : 'Change Password'}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
