// The /profile route's server half: read and edit modes for the profile fields (?edit=1), a
// change-password section with its own edit mode (?password=1), and the account information
// card. Edit modes are URL state so the page works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import type { ProfileData } from './profile-screen.tsx';
import { loadScreen, screenAction, succeed } from '../../platform/screen/screen.server.ts';
import { intent } from '../../platform/screen/intent.ts';
import { ProfilePasswordSchema, ProfileSchema } from './profile-schemas.ts';
import { changePassword } from '../auth/index.server.ts';
import { getOwnProfile, updateOwnProfile } from './profile.server.ts';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { requestI18n } from '../shell/index.server.ts';

export { retryAfterHeaders as headers } from '../../platform/screen/screen.server.ts';

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url, auth }) => {
    const data: ProfileData = {
      profile: await getOwnProfile(ctx),
      editing: url.searchParams.get('edit') === '1',
      changingPassword: url.searchParams.get('password') === '1',
      twoFactorEnabled: auth.twoFactorEnabled,
    };
    return json(data);
  });

const intents = {
  profile: intent({
    allow: allow.signedIn,
    schema: ProfileSchema,
    run: async (value, screen) => {
      const { t } = requestI18n(screen.request, screen.auth);
      await updateOwnProfile(screen.ctx, value);
      return succeed(
        screen,
        { type: 'success', title: t('Profile Updated'), description: t('Your profile has been saved.') },
        { to: '/profile' },
      );
    },
  }),
  password: intent({
    allow: allow.signedIn,
    schema: ProfilePasswordSchema,
    hideFields: ['currentPassword', 'newPassword', 'confirmPassword'],
    run: async ({ currentPassword, newPassword }, screen) => {
      const { t } = requestI18n(screen.request, screen.auth);
      await changePassword(screen.ctx, screen.user.id, { currentPassword, newPassword }, screen.auth.session.id);
      return succeed(
        screen,
        { type: 'success', title: t('Password Changed'), description: t('Your password has been changed.') },
        { to: '/profile' },
      );
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) =>
  screenAction(args, intents, { fallback: 'profile', i18n: requestI18n });
