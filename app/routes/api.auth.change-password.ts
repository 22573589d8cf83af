import { apiRoute, readJson } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { changePassword } from '../services/auth.server.ts';
import { ChangePasswordSchema } from '../lib/auth-schemas.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.signedIn,
    body: ChangePasswordSchema,
    run: async ({ request, auth, ctx }) => {
      await changePassword(ctx, auth.user.id, await readJson(request), auth.session.id);
      return { success: true, message: 'Password changed successfully' };
    },
  },
});
