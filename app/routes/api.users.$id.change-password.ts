import { apiRoute, idParam, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { changePassword } from '../features/auth/auth.server.ts';
import { PasswordChangeBody } from '../features/auth/schemas.ts';
import type { PasswordChanged } from '../features/users/answers.ts';

// Oneself (current password required), or a user manager within the owner protections.
export const { loader, action, access } = apiRoute(
  {
    POST: {
      allow: allow.self({ area: 'users', action: 'edit' }),
      body: PasswordChangeBody,
      run: async ({ request, params, auth, ctx }) => {
        await changePassword(ctx, idParam(params.id), await readJson(request), auth.session.id);
        return { success: true, message: 'Password changed successfully' } satisfies PasswordChanged;
      },
    },
  },
  { companyScoped: true },
);
