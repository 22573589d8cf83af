import { apiRoute } from '../http/api.server.ts';
import { toPublicUser } from '../services/user-queries.server.ts';

export const { loader, action } = apiRoute({ GET: async ({ auth }) => toPublicUser(auth.user) });
