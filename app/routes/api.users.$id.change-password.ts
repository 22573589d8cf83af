import { apiRoute, idParam, readJson } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { changePassword } from '../services/auth.server.ts';
import { PasswordChangeBody } from '../http/request-bodies.server.ts';

// Oneself (current password required), or a user manager within the owner protections.
export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.self({ area: 'users', action: 'edit' }),
    body: PasswordChangeBody,
    run: async ({ request, params, auth, ctx }) => {
      await changePassword(ctx, idParam(params.id), await readJson(request), auth.session.id);
      return { success: true, message: 'Password changed successfully' };
    },
  },
}, { companyScoped: true });
