// PUT /api/users/{id}/deactivate: the user's sessions end at once.
import { apiRoute, idParam } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { getUser, setUserActive } from '../features/users/users.server.ts';

export const { loader, action, access } = apiRoute(
  {
    PUT: {
      allow: allow.to('users', 'edit'),
      run: async ({ params, ctx }) => {
        const id = idParam(params.id);
        await setUserActive(ctx, id, false);
        return getUser(ctx, id);
      },
    },
  },
  { companyScoped: true },
);
