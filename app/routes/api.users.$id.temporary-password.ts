// POST /api/users/{id}/temporary-password → { temporaryPassword } (shown once; the user's
// sessions end and they must change it at next sign-in).
import { apiRoute, idParam } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { issueTemporaryPassword } from '../features/users/users.server.ts';

export const { loader, action, access } = apiRoute(
  {
    POST: {
      allow: allow.to('users', 'edit'),
      run: async ({ params, ctx }) => {
        const { temporaryPassword } = await issueTemporaryPassword(ctx, idParam(params.id));
        return { temporaryPassword };
      },
    },
  },
  { companyScoped: true },
);
