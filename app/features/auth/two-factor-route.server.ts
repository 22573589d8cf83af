// The /two-factor route's server half: one's own second factor. Off: a button starts the setup;
// a setup waiting for its first code shows the QR code (SVG drawn here) and the secret as text,
// and takes the code; on: new recovery codes or turning it off, each after the password and a
// current code. Recovery codes are answered once, by the action that made them. An owner or
// admin whom the owner requires to use two-factor is kept here until it is on.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { loadScreen, screenAction, succeed } from '../../platform/screen/screen.server.ts';
import { intent } from '../../platform/screen/intent.ts';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { TwoFactorCodeSchema, TwoFactorConfirmSchema } from './schemas.ts';
import {
  confirmTwoFactorSetup,
  pendingTwoFactorSetup,
  renewRecoveryCodes,
  startTwoFactorSetup,
  turnOffTwoFactor,
  twoFactorStatus,
} from './two-factor-state.server.ts';
import type { TwoFactorData } from './two-factor-screen.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { requestI18n } from '../shell/index.server.ts';
import { translatingFailures } from './translate-failure.server.ts';

export { retryAfterHeaders as headers } from '../../platform/screen/screen.server.ts';

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, auth, context }) => {
    const status = await twoFactorStatus(ctx.db, auth.user.id);
    const data: TwoFactorData = {
      status,
      setup: status.enabled ? null : await pendingTwoFactorSetup(ctx, context.config.integrations.keys),
      required: auth.mustSetUpTwoFactor,
    };
    return json(data);
  });

const intents = {
  start: intent({
    allow: allow.signedIn,
    run: async (_value, screen) => {
      const { t } = requestI18n(screen.request, screen.auth);
      await translatingFailures(t, () => startTwoFactorSetup(screen.ctx, screen.context.config.integrations.keys));
      return redirect('/two-factor');
    },
  }),
  confirm: intent({
    allow: allow.signedIn,
    schema: TwoFactorConfirmSchema,
    invalid: msg('The code was not accepted'),
    run: async (value, screen, _form, reply) => {
      const { t } = requestI18n(screen.request, screen.auth);
      const { recoveryCodes } = await translatingFailures(t, () =>
        confirmTwoFactorSetup(screen.ctx, screen.context.config.integrations.keys, value),
      );
      return json({
        intent: 'confirm',
        result: reply({ resetForm: true }),
        recoveryCodes,
        wasRequired: screen.auth.mustSetUpTwoFactor,
      });
    },
  }),
  renew: intent({
    allow: allow.signedIn,
    schema: TwoFactorCodeSchema,
    hideFields: ['currentPassword'],
    run: async (value, screen, _form, reply) => {
      const { t } = requestI18n(screen.request, screen.auth);
      const { recoveryCodes } = await translatingFailures(t, () =>
        renewRecoveryCodes(screen.ctx, screen.context.config.integrations.keys, value),
      );
      return json({ intent: 'renew', result: reply({ resetForm: true }), recoveryCodes, wasRequired: false });
    },
  }),
  disable: intent({
    allow: allow.signedIn,
    schema: TwoFactorCodeSchema,
    hideFields: ['currentPassword'],
    run: async (value, screen) => {
      const { t } = requestI18n(screen.request, screen.auth);
      await translatingFailures(t, () => turnOffTwoFactor(screen.ctx, screen.context.config.integrations.keys, value));
      return succeed(
        screen,
        {
          type: 'success',
          title: t('Two-factor authentication turned off'),
          description: t('Your account signs in with its password alone.'),
        },
        { to: '/two-factor' },
      );
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) => screenAction(args, intents, { i18n: requestI18n });
