// One user: GET (oneself, or a user manager), PUT (username, email, role, companyId; user
// managers), PATCH (one's own profile fields only), DELETE (204).
import { apiRoute, idParam, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { updateOwnProfile } from '../features/settings/profile.server.ts';
import { assertOwnAccount, OWN_PROFILE_ONLY } from '../features/users/user-policy.server.ts';
import { deleteUser, getUser, updateUser } from '../features/users/users.server.ts';
import { UpdateUserSchema } from '../features/users/schemas.ts';
import { ProfileSchema } from '../features/settings/profile-schemas.ts';

export const { loader, action, access } = apiRoute(
  {
    GET: {
      allow: allow.self({ area: 'users', action: 'read' }),
      run: async ({ params, ctx }) => getUser(ctx, idParam(params.id)),
    },
    PUT: {
      allow: allow.to('users', 'edit'),
      body: UpdateUserSchema,
      run: async ({ request, params, ctx }) => updateUser(ctx, idParam(params.id), await readJson(request)),
    },
    PATCH: {
      allow: allow.self(undefined, OWN_PROFILE_ONLY),
      body: ProfileSchema,
      run: async ({ request, params, ctx }) => {
        const id = idParam(params.id);
        assertOwnAccount(ctx, id);
        await updateOwnProfile(ctx, await readJson(request));
        return getUser(ctx, id);
      },
    },
    DELETE: {
      allow: allow.to('users', 'delete'),
      run: async ({ params, ctx }) => {
        await deleteUser(ctx, idParam(params.id));
        return new Response(null, { status: 204 });
      },
    },
  },
  { companyScoped: true },
);
