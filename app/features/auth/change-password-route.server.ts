// The /change-password route's server half: the page a temporary password (or an administrator's
// "change required") leads to before anything else opens, and where anyone may change their own password.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { loadScreen, screenAction } from '../../platform/screen/screen.server.ts';
import { intent } from '../../platform/screen/intent.ts';
import { ChangePasswordFormSchema } from './schemas.ts';
import { changePassword } from './auth.server.ts';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { requestI18n } from '../shell/index.server.ts';
import { translatingFailures } from './translate-failure.server.ts';

export { retryAfterHeaders as headers } from '../../platform/screen/screen.server.ts';

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
      const { t } = requestI18n(screen.request, screen.auth);
      await translatingFailures(t, () =>
        changePassword(screen.ctx, screen.user.id, { currentPassword, newPassword }, screen.auth.session.id),
      );
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

export const action = (args: ActionFunctionArgs) =>
  screenAction(args, intents, { fallback: 'change', i18n: requestI18n });
