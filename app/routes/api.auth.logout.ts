import { apiRoute, json } from '../http/api.server.ts';
import { clearSessionCookieHeader, getAuth, requestMeta } from '../http/session.server.ts';
import { logout } from '../services/auth.server.ts';

// Public so that signing out twice, or with an expired session, still clears the cookie.
export const { loader, action } = apiRoute(
  {
    POST: async ({ request, context }) => {
      const auth = await getAuth(request, context);
      if (auth) await logout(context.db, requestMeta(request, context, auth), auth.user, auth.session.id);
      return json({ success: true }, { headers: { 'Set-Cookie': await clearSessionCookieHeader(context) } });
    },
  },
  { access: 'public' },
);
