// The /login/two-factor route's server half: the second step of a sign-in. It opens only while a
// challenge is waiting (its token in a short-lived cookie set by /login); a right code or an
// unused recovery code opens the session and goes on where the visitor was headed (a temporary
// password is changed after this step). An ended challenge sends the visitor back to /login.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { safeRedirect } from './authenticator.server.ts';
import {
  clearChallengeCookieHeader,
  getAuth,
  readChallengeToken,
  readSessionToken,
  requestMeta,
  sessionCookieHeader,
} from '../../platform/session/session.server.ts';
import { screenAction, succeed, type PublicPage } from '../../platform/screen/screen.server.ts';
import { intent } from '../../platform/screen/intent.ts';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { isDomainError } from '../../platform/errors.ts';
import { redirectWithToast } from '../../platform/session/toast.server.ts';
import { TwoFactorSignInSchema } from './schemas.ts';
import { completeTwoFactor, findChallenge } from './two-factor-challenges.server.ts';
import { requestI18n } from '../shell/index.server.ts';
import { welcomeToast } from './welcome-toast.server.ts';
import { translatedFailure, translatedMessage } from './translate-failure.server.ts';

export { retryAfterHeaders as headers } from '../../platform/screen/screen.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = url.searchParams.get('redirectTo');
  if (await getAuth(request, context)) throw redirect(safeRedirect(redirectTo));
  const challenge = await findChallenge(context.db, await readChallengeToken(request, context));
  if (!challenge) throw redirect(redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/login');
  return json({ expiresAt: challenge.expiresAt });
}

const intents = {
  verify: intent({
    allow: allow.public,
    schema: TwoFactorSignInSchema,
    run: async (value, page: PublicPage) => {
      const { request, context } = page;
      // The sign-in page's language: the browser's.
      const { t } = requestI18n(request, null);
      try {
        const signedIn = await completeTwoFactor(
          {
            db: context.db,
            meta: requestMeta(request, context),
            runtime: context.runtime,
            keys: context.config.integrations.keys,
          },
          { challenge: await readChallengeToken(request, context), code: value.code },
          await readSessionToken(request, context),
        );
        const headers = new Headers();
        headers.append('Set-Cookie', await sessionCookieHeader(context, signedIn.token, signedIn.session.rememberMe));
        headers.append('Set-Cookie', await clearChallengeCookieHeader(context));
        return succeed(
          page,
          await welcomeToast(
            request,
            context.db,
            signedIn.user.id,
            signedIn.method === 'recovery' ? signedIn.recoveryCodesLeft : undefined,
          ),
          { to: safeRedirect(value.redirectTo), headers },
        );
      } catch (error) {
        // The challenge has ended (5 minutes, 5 wrong codes): back to the password.
        if (isDomainError(error) && error.kind === 'unauthenticated')
          return redirectWithToast(
            context,
            value.redirectTo ? `/login?redirectTo=${encodeURIComponent(safeRedirect(value.redirectTo))}` : '/login',
            { type: 'error', title: t('Login failed'), description: translatedMessage(error, t) },
            { 'Set-Cookie': await clearChallengeCookieHeader(context) },
          );
        throw translatedFailure(error, t);
      }
    },
  }),
};

export const access = screenAccess(intents, { get: allow.public });

export const action = (args: ActionFunctionArgs) =>
  screenAction(args, intents, {
    i18n: requestI18n,
    fallback: 'verify',
    open: async ({ request, context }) => ({ request, context, url: new URL(request.url) }),
  });
