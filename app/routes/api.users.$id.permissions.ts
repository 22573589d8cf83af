// PUT /api/users/{id}/permissions: the ten permission flags.
import { apiRoute, idParam, readJson } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { updateUserPermissions } from '../services/users.server.ts';
import { PermissionsSchema } from '../lib/users.ts';

export const { loader, action, access } = apiRoute({
  PUT: { allow: allow.to('users', 'edit'), body: PermissionsSchema, run: async ({ request, params, ctx }) => updateUserPermissions(ctx, idParam(params.id), await readJson(request)) },
}, { companyScoped: true });
