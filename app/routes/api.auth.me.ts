import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { toPublicUser } from '../features/users/user-queries.server.ts';
import type { SignedInUser } from '../features/auth/answers.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.signedIn, run: async ({ auth }): Promise<SignedInUser> => toPublicUser(auth.user) },
});
