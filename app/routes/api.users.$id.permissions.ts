// PUT /api/users/{id}/permissions: the ten permission flags.
import { apiRoute, idParam, readJson } from '../http/api.server.ts';
import { updateUserPermissions } from '../services/users.server.ts';

export const { loader, action } = apiRoute({
  PUT: async ({ request, params, ctx }) => updateUserPermissions(ctx, idParam(params.id), await readJson(request)),
});
