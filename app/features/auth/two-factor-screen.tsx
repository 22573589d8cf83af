// The /two-factor page: the state of one's second factor and what can be done with it. The QR
// code is an SVG drawn by the server, so the setup works without JavaScript; the secret is shown
// as text too, for typing into an app. Recovery codes appear once, right after they are made,
// with a download of the same list as a text file.
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation } from '@remix-run/react';
import { PageHeading } from '../../ui/page-heading.tsx';
import { FormError, formErrorOf, resultFor, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { Alert, Button, Card, Field, inputClass } from '../../ui/form.tsx';
import { screenTitle } from '../../platform/screen/navigation.ts';
import { TwoFactorCodeSchema, TwoFactorConfirmSchema } from './schemas.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { errorText, errorTexts } from './form-errors.ts';

export interface TwoFactorData {
  status: { enabled: boolean; enabledAt: string | null; recoveryCodesLeft: number; pending: boolean };
  setup: { secret: string; uri: string; qrSvg: string } | null;
  /** The owner requires two-factor of owners and admins, and this user has none yet. */
  required: boolean;
}

export type TwoFactorAction = ActionAnswer & { recoveryCodes?: string[]; wasRequired?: boolean };

const CODE_HINT = msg('The 6-digit code your authenticator app shows now.');

export function TwoFactorScreen({
  data,
  actionData,
}: {
  data: TwoFactorData;
  actionData: TwoFactorAction | undefined;
}) {
  const t = useT();
  const { status, setup, required } = data;
  const codes = actionData?.recoveryCodes;
  // A setup confirmed again once on (a form posted twice): its refusal has no form left to show it.
  const staleConfirm = status.enabled && actionData?.intent === 'confirm' && !codes ? formErrorOf(actionData) : null;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeading title={t(screenTitle('/two-factor'))} />
      {required && !status.enabled ? (
        <Alert tone="warning" title={t('Two-factor authentication required')}>
          {t(
            'Your organisation requires owners and administrators to use two-factor authentication. Set it up before you continue.',
          )}
        </Alert>
      ) : null}
      {staleConfirm ? <Alert>{errorText(t, staleConfirm)}</Alert> : null}
      {codes ? <RecoveryCodes codes={codes} continueTo={actionData?.wasRequired ? '/' : null} /> : null}
      {status.enabled ? (
        <Manage status={status} actionData={actionData} />
      ) : setup ? (
        <Confirm setup={setup} actionData={actionData} />
      ) : (
        <Start />
      )}
    </div>
  );
}

function Start() {
  const t = useT();
  const navigation = useNavigation();
  return (
    <Card title={t('Status: off')}>
      <p className="mb-4 text-sm text-slate-600">
        {t(
          'With two-factor authentication, signing in needs your password and a code from an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or 1Password).',
        )}
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value="start" />
        <Button type="submit" disabled={navigation.state === 'submitting'}>
          {t('Set up two-factor authentication')}
        </Button>
      </Form>
    </Card>
  );
}

function Confirm({ setup, actionData }: { setup: NonNullable<TwoFactorData['setup']>; actionData?: TwoFactorAction }) {
  const t = useT();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'two-factor-confirm',
    lastResult: resultFor(actionData, 'confirm'),
    constraint: getZodConstraint(TwoFactorConfirmSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TwoFactorConfirmSchema }),
  });
  return (
    <Card title={t('Set up two-factor authentication')}>
      <ol className="list-decimal space-y-4 pl-5 text-sm text-slate-700">
        <li>
          {t('Scan this QR code with your authenticator app.')}
          <div
            className="mt-2 h-48 w-48 rounded border border-slate-200 bg-white p-1"
            role="img"
            aria-label={t('QR code for your authenticator app')}
            data-testid="two-factor-qr"
            // Drawn by the server from our own otpauth URI (qrcode): paths only, no text or scripts.
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
        </li>
        <li>
          {t('Or type this key into the app:')}{' '}
          <code className="break-all rounded bg-slate-100 px-1 py-0.5 font-mono" data-testid="two-factor-secret">
            {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
        </li>
        <li>
          {t('Enter the code the app shows to confirm.')}
          <Form method="post" {...getFormProps(form)} noValidate className="mt-2 space-y-3">
            <input type="hidden" name="intent" value="confirm" />
            <FormError errors={errorTexts(t, form.errors)} />
            <Field
              label={t('Authentication code')}
              id={fields.code.id}
              error={errorTexts(t, fields.code.errors)}
              hint={t(CODE_HINT)}
            >
              <input
                {...getInputProps(fields.code, { type: 'text' })}
                inputMode="numeric"
                autoComplete="one-time-code"
                className={`${inputClass} max-w-xs font-mono`}
              />
            </Field>
            <Button type="submit" disabled={navigation.state === 'submitting'}>
              {t('Turn on two-factor authentication')}
            </Button>
          </Form>
        </li>
      </ol>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="start" />
        <button type="submit" className="text-sm text-blue-700 hover:underline">
          {t('Start again with a new key')}
        </button>
      </Form>
    </Card>
  );
}

function Manage({ status, actionData }: { status: TwoFactorData['status']; actionData?: TwoFactorAction }) {
  const t = useT();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'two-factor-manage',
    lastResult: resultFor(actionData, 'renew') ?? resultFor(actionData, 'disable'),
    constraint: getZodConstraint(TwoFactorCodeSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TwoFactorCodeSchema }),
  });
  return (
    <Card title={t('Status: on')}>
      <p className="text-sm text-slate-700" data-testid="two-factor-status">
        {t('Signing in needs a code from your authenticator app.')} {t('Recovery codes left:')}{' '}
        <strong>{status.recoveryCodesLeft}</strong>.
      </p>
      {status.recoveryCodesLeft < 3 ? (
        <div className="mt-3">
          <Alert tone="warning" title={t('Few recovery codes left')}>
            {t('Make new recovery codes so that you can still sign in if you lose your phone.')}
          </Alert>
        </div>
      ) : null}
      <h3 className="mt-5 text-sm font-semibold text-slate-900">
        {t('Make new recovery codes or turn two-factor off')}
      </h3>
      <p className="text-sm text-slate-600">{t('Both need your password and a current code (or a recovery code).')}</p>
      <Form method="post" {...getFormProps(form)} noValidate className="mt-3 space-y-3">
        <FormError errors={errorTexts(t, form.errors)} />
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
          label={t('Authentication code')}
          id={fields.code.id}
          error={errorTexts(t, fields.code.errors)}
          hint={t(CODE_HINT)}
        >
          <input
            {...getInputProps(fields.code, { type: 'text' })}
            autoComplete="one-time-code"
            className={`${inputClass} max-w-xs font-mono`}
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="renew" disabled={navigation.state === 'submitting'}>
            {t('Make new recovery codes')}
          </Button>
          <Button
            type="submit"
            name="intent"
            value="disable"
            variant="danger"
            disabled={navigation.state === 'submitting'}
          >
            {t('Turn off two-factor authentication')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function RecoveryCodes({ codes, continueTo }: { codes: string[]; continueTo: string | null }) {
  const t = useT();
  const text = `${t('Group Finance Hub recovery codes')}\n${t('Each code works once.')}\n\n${codes.join('\n')}\n`;
  return (
    <Card title={t('Your recovery codes')}>
      <Alert tone="success" title={t('Two-factor authentication is on')}>
        {t(
          'Save these recovery codes now: they are shown only once. Each one signs you in once if you lose your phone.',
        )}
      </Alert>
      <ol className="mt-4 grid grid-cols-2 gap-2 font-mono text-sm" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-100 px-2 py-1">
            {code}
          </li>
        ))}
      </ol>
      <div className="mt-4 flex flex-wrap gap-3">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="finhub-recovery-codes.txt"
          className="btn-secondary"
        >
          {t('Download as text')}
        </a>
        {continueTo ? (
          <Link to={continueTo} className="btn-primary">
            {t('Continue')}
          </Link>
        ) : null}
      </div>
    </Card>
  );
}
