// PUT /api/users/{id}/reactivate.
import { apiRoute, idParam } from '../http/api.server.ts';
import { getUser, setUserActive } from '../services/users.server.ts';

export const { loader, action } = apiRoute({
  PUT: async ({ params, ctx }) => {
    const id = idParam(params.id);
    await setUserActive(ctx, id, true);
    return getUser(ctx, id);
  },
});
