// The sign-in page: e-mail and password (shown on request once hydrated), remember me, the
// way back to where the visitor was headed, and the note on how to get a new password.
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation, useSearchParams } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { FormError, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { Button, Field, inputClass } from '../../ui/form.tsx';
import { EyeIcon, EyeOffIcon, LockIcon } from '../../ui/icons.tsx';
import { ToastView } from '../../ui/toast.tsx';
import { LoginSchema } from './schemas.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { errorTexts } from './form-errors.ts';

export const FORGOT_PASSWORD_MESSAGE = msg('Please contact your administrator for password reset.');

export interface LoginData {
  /** ?forgot: the note on how to get a new password. */
  forgot: boolean;
}

export function LoginScreen({
  data: { forgot },
  actionData,
}: {
  data: LoginData;
  actionData: ActionAnswer | undefined;
}) {
  const t = useT();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const [hydrated, setHydrated] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  useEffect(() => setHydrated(true), []);

  const [form, fields] = useForm({
    id: 'login',
    lastResult: actionData?.result,
    constraint: getZodConstraint(LoginSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
  });
  const submitting = navigation.state === 'submitting';

  return (
    <div className="flex min-h-full items-center justify-center bg-gradient-to-b from-slate-900 to-slate-700 px-4 py-12">
      {forgot ? (
        <ToastView toast={{ type: 'info', title: t('Password reset'), description: t(FORGOT_PASSWORD_MESSAGE) }} />
      ) : null}
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-xl">
        <div className="mb-6 text-center">
          <LockIcon className="mx-auto h-10 w-10 text-blue-700" />
          <h1 className="mt-3 text-2xl font-semibold text-slate-900">{t('Sign in to Group Finance Hub')}</h1>
          <p className="mt-1 text-sm text-slate-500">{t('Enter your credentials to access the platform')}</p>
        </div>

        {form.errors?.length ? (
          <div className="mb-4">
            <FormError title={t('Login failed')} errors={errorTexts(t, form.errors)} />
          </div>
        ) : null}

        <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
          <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
          <Field label={t('Email')} id={fields.email.id} error={errorTexts(t, fields.email.errors)}>
            <input
              {...getInputProps(fields.email, { type: 'email' })}
              autoComplete="username"
              placeholder="you@company.com"
              translate="no"
              className={inputClass}
            />
          </Field>
          <Field label={t('Password')} id={fields.password.id} error={errorTexts(t, fields.password.errors)}>
            <div className="relative">
              <input
                {...getInputProps(fields.password, { type: hydrated && showPassword ? 'text' : 'password' })}
                autoComplete="current-password"
                className={`${inputClass} pr-10`}
              />
              {hydrated ? (
                <button
                  type="button"
                  onClick={() => setShowPassword((v) => !v)}
                  className="absolute inset-y-0 right-0 flex items-center px-3 text-slate-500 hover:text-slate-700"
                  aria-label={showPassword ? t('Hide password') : t('Show password')}
                >
                  {showPassword ? <EyeOffIcon className="h-4 w-4" /> : <EyeIcon className="h-4 w-4" />}
                </button>
              ) : null}
            </div>
          </Field>
          <div className="flex items-center justify-between text-sm">
            <label className="flex items-center gap-2 text-slate-700">
              <input type="checkbox" name="rememberMe" className="h-4 w-4 rounded border-slate-300" />{' '}
              {t('Remember me')}
            </label>
            <Link to="/login?forgot=1" className="text-blue-700 hover:underline">
              {t('Forgot password?')}
            </Link>
          </div>
          <Button type="submit" className="w-full" disabled={submitting}>
            {submitting ? t('Signing in...') : t('Sign In')}
          </Button>
        </Form>

        <p className="mt-6 text-center text-sm text-slate-500">
          {t('Need an account or lost access? Contact your system administrator.')}
        </p>
        <p className="mt-3 text-center text-sm">
          <Link to="/" className="text-blue-700 hover:underline">
            {t('← Back to Platform Overview')}
          </Link>
        </p>
      </div>
    </div>
  );
}
