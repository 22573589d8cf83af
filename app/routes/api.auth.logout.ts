import { apiRoute, apiJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { clearSessionCookieHeader, getAuth, serviceContext } from '../platform/session/session.server.ts';
import { logout } from '../features/auth/auth.server.ts';
import type { LogoutResult } from '../features/auth/answers.ts';

// Public so that signing out twice, or with an expired session, still clears the cookie.
export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.public,
    run: async ({ request, context }) => {
      const auth = await getAuth(request, context);
      if (auth) await logout(serviceContext(request, context, auth), auth.session.id);
      return apiJson({ success: true } satisfies LogoutResult, {
        headers: { 'Set-Cookie': await clearSessionCookieHeader(context) },
      });
    },
  },
});
