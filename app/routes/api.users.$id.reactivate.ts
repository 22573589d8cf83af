// PUT /api/users/{id}/reactivate.
import { apiRoute, idParam } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { getUser, setUserActive } from '../services/users.server.ts';

export const { loader, action, access } = apiRoute({
  PUT: {
    allow: allow.to('users', 'edit'),
    run: async ({ params, ctx }) => {
      const id = idParam(params.id);
      await setUserActive(ctx, id, true);
      return getUser(ctx, id);
    },
  },
}, { companyScoped: true });
