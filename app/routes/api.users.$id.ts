// One user: GET (oneself, or a user manager), PUT (username, email, role, companyId; user
// managers), PATCH (one's own profile fields only), DELETE (204).
import { apiRoute, idParam, readJson } from '../http/api.server.ts';
import { updateOwnProfile } from '../services/profile.server.ts';
import { assertOwnAccount } from '../services/user-policy.server.ts';
import { deleteUser, getUser, updateUser } from '../services/users.server.ts';

export const { loader, action } = apiRoute({
  GET: async ({ params, ctx }) => getUser(ctx, idParam(params.id)),
  PUT: async ({ request, params, ctx }) => updateUser(ctx, idParam(params.id), await readJson(request)),
  PATCH: async ({ request, params, ctx }) => {
    const id = idParam(params.id);
    assertOwnAccount(ctx, id);
    await updateOwnProfile(ctx, await readJson(request));
    return getUser(ctx, id);
  },
  DELETE: async ({ params, ctx }) => {
    await deleteUser(ctx, idParam(params.id));
    return new Response(null, { status: 204 });
  },
});
