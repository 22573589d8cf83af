// PUT /api/users/{id}/permissions: the ten permission flags.
import { apiRoute, idParam, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { updateUserPermissions } from '../features/users/users.server.ts';
import { PermissionsSchema } from '../features/users/schemas.ts';

export const { loader, action, access } = apiRoute(
  {
    PUT: {
      allow: allow.to('users', 'edit'),
      body: PermissionsSchema,
      run: async ({ request, params, ctx }) => updateUserPermissions(ctx, idParam(params.id), await readJson(request)),
    },
  },
  { companyScoped: true },
);
