import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { clearSessionCookieHeader, getAuth, serviceContext } from '../platform/session/session.server.ts';
import { redirectWithToast } from '../platform/session/toast.server.ts';
import { logout } from '../features/auth/auth.server.ts';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';
import { requestI18n } from '../features/shell/index.server.ts';

export const access: RouteAccess = [{ methods: { GET: allow.redirect, POST: allow.public } }];

// Signing out changes state, so it is a POST only; a GET goes home.
export const loader = () => redirect('/');

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await getAuth(request, context);
  if (auth) await logout(serviceContext(request, context, auth), auth.session.id);
  const { t } = requestI18n(request, auth);
  return redirectWithToast(
    context,
    '/',
    { type: 'success', title: t('Logged Out'), description: t('You have been logged out successfully.') },
    { 'Set-Cookie': await clearSessionCookieHeader(context) },
  );
}
