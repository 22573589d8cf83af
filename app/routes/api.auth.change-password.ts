import { apiRoute, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { changePassword } from '../features/auth/auth.server.ts';
import { ChangePasswordSchema } from '../features/auth/schemas.ts';
import type { PasswordChanged } from '../features/users/answers.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.signedIn,
    body: ChangePasswordSchema,
    run: async ({ request, auth, ctx }) => {
      await changePassword(ctx, auth.user.id, await readJson(request), auth.session.id);
      return { success: true, message: 'Password changed successfully' } satisfies PasswordChanged;
    },
  },
});
