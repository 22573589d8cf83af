import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { toPublicUser } from '../services/user-queries.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.signedIn, run: async ({ auth }) => toPublicUser(auth.user) } });
