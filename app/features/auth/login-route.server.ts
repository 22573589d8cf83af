// The /login route's server half: a visitor already signed in goes on to where they were headed
// (when that is a safe address); the form signs in through remix-auth's form strategy, sets the
// session cookie and goes on the same way; a user with two-factor goes to /login/two-factor first. ?forgot asks the page to show how to get a new password.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { authenticatorFor, safeRedirect } from './authenticator.server.ts';
import { challengeCookieHeader, getAuth, sessionCookieHeader } from '../../platform/session/session.server.ts';
import { screenAction, succeed, type PublicPage } from '../../platform/screen/screen.server.ts';
import { intent } from '../../platform/screen/intent.ts';
import { LoginSchema } from './schemas.ts';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { requestI18n } from '../shell/index.server.ts';
import { welcomeToast } from './welcome-toast.server.ts';
import { translatingFailures } from './translate-failure.server.ts';

export { retryAfterHeaders as headers } from '../../platform/screen/screen.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await getAuth(request, context);
  const url = new URL(request.url);
  if (auth) throw redirect(safeRedirect(url.searchParams.get('redirectTo')));
  return json({ forgot: url.searchParams.has('forgot') });
}

const intents = {
  login: intent({
    allow: allow.public,
    schema: LoginSchema,
    hideFields: ['password'],
    run: async (value, page: PublicPage) => {
      // The sign-in page's language: the browser's.
      const { t } = requestI18n(page.request, null);
      const step = await translatingFailures(t, () =>
        authenticatorFor(page.context).authenticate('form', page.request),
      );
      if (step.kind === 'twoFactor') {
        const next = value.redirectTo ? `?redirectTo=${encodeURIComponent(safeRedirect(value.redirectTo))}` : '';
        return redirect(`/login/two-factor${next}`, {
          headers: { 'Set-Cookie': await challengeCookieHeader(page.context, step.challenge, step.expiresAt) },
        });
      }
      const cookie = await sessionCookieHeader(page.context, step.token, step.session.rememberMe);
      return succeed(page, await welcomeToast(page.request, page.context.db, step.user.id), {
        to: safeRedirect(value.redirectTo),
        headers: { 'Set-Cookie': cookie },
      });
    },
  }),
};

export const access = screenAccess(intents, { get: allow.public });

export const action = (args: ActionFunctionArgs) =>
  screenAction(args, intents, {
    i18n: requestI18n,
    fallback: 'login',
    // Anyone may post; remix-auth reads the body again.
    open: async ({ request, context }) => ({ request, context, url: new URL(request.url) }),
    keepBody: true,
  });
