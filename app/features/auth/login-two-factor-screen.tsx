// The second step of a sign-in: the code from the authenticator app, or a recovery code.
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation, useSearchParams } from '@remix-run/react';
import { FormError, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { Button, Field, inputClass } from '../../ui/form.tsx';
import { LockIcon } from '../../ui/icons.tsx';
import { TwoFactorSignInSchema } from './schemas.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { errorTexts } from './form-errors.ts';

export function LoginTwoFactorScreen({ actionData }: { actionData: ActionAnswer | undefined }) {
  const t = useT();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const [form, fields] = useForm({
    id: 'login-two-factor',
    lastResult: actionData?.result,
    constraint: getZodConstraint(TwoFactorSignInSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TwoFactorSignInSchema }),
  });
  const submitting = navigation.state === 'submitting';
  return (
    <div className="flex min-h-full items-center justify-center bg-gradient-to-b from-slate-900 to-slate-700 px-4 py-12">
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-xl">
        <div className="mb-6 text-center">
          <LockIcon className="mx-auto h-10 w-10 text-blue-700" />
          <h1 className="mt-3 text-2xl font-semibold text-slate-900">{t('Two-factor authentication')}</h1>
          <p className="mt-1 text-sm text-slate-500">
            {t('Enter the code from your authenticator app to finish signing in')}
          </p>
        </div>
        {form.errors?.length ? (
          <div className="mb-4">
            <FormError title={t('Login failed')} errors={errorTexts(t, form.errors)} />
          </div>
        ) : null}
        <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
          <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
          <Field
            label={t('Authentication code')}
            id={fields.code.id}
            error={errorTexts(t, fields.code.errors)}
            hint={t('Lost your phone? Enter one of your recovery codes instead.')}
          >
            <input
              {...getInputProps(fields.code, { type: 'text' })}
              autoComplete="one-time-code"
              className={`${inputClass} font-mono`}
            />
          </Field>
          <Button type="submit" className="w-full" disabled={submitting}>
            {submitting ? t('Verifying...') : t('Verify')}
          </Button>
        </Form>
        <p className="mt-6 text-center text-sm text-slate-500">
          {t('No phone and no recovery codes? Ask the owner to reset your two-factor authentication.')}
        </p>
        <p className="mt-3 text-center text-sm">
          <Link to="/login" className="text-blue-700 hover:underline">
            {t('← Back to sign in')}
          </Link>
        </p>
      </div>
    </div>
  );
}
