import { apiRoute, idParam, readJson } from '../http/api.server.ts';
import { changePassword } from '../services/auth.server.ts';

// Oneself (current password required), or a user manager within the owner protections.
export const { loader, action } = apiRoute({
  POST: async ({ request, params, auth, ctx }) => {
    await changePassword(ctx, idParam(params.id), await readJson(request), auth.session.id);
    return { success: true, message: 'Password changed successfully' };
  },
});
