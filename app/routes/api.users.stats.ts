// GET /api/users/stats: { totalUsers, activeUsers, inactiveUsers, usersByRole }.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { userStats } from '../services/users.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('users'), run: async ({ ctx }) => userStats(ctx) } });
