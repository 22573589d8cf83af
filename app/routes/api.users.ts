// GET /api/users (paged list: { users, total, totalPages }) and POST /api/users (create).
import { apiRoute, apiJson, pagingHeaders, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { createUser, getUser, listUsersPage } from '../features/users/users.server.ts';
import { CreateUserSchema } from '../features/users/schemas.ts';
import type { CreatedUser } from '../features/users/answers.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.to('users'),
    run: async ({ request, ctx }) => {
      const url = new URL(request.url);
      const { users, total, totalPages, page } = await listUsersPage(ctx, Object.fromEntries(url.searchParams));
      return apiJson(
        { users, total, totalPages },
        { headers: pagingHeaders(url, total, page < totalPages ? { page: page + 1 } : null) },
      );
    },
  },
  POST: {
    allow: allow.to('users', 'create'),
    body: CreateUserSchema,
    run: async ({ request, ctx }) => {
      const { user, temporaryPassword } = await createUser(ctx, await readJson(request));
      // A generated temporary password (asked for with temporaryPassword: true) is shown once, in this answer only.
      const created = await getUser(ctx, user.id);
      const answer: CreatedUser = temporaryPassword ? { ...created, temporaryPassword } : created;
      return apiJson(answer, { status: 201 });
    },
  },
});
