import { apiRoute } from '../http/api.server.ts';
import { toPublicUser } from '../services/users.server.ts';

export const { loader, action } = apiRoute({ GET: async ({ auth }) => toPublicUser(auth.user) });
