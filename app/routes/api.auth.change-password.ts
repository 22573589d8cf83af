import { apiRoute, readJson } from '../http/api.server.ts';
import { changePassword } from '../services/auth.server.ts';

export const { loader, action } = apiRoute({
  POST: async ({ request, auth, ctx }) => {
    await changePassword(ctx, auth.user.id, await readJson(request), auth.session.id);
    return { success: true, message: 'Password changed successfully' };
  },
});
