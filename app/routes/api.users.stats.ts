// GET /api/users/stats: { totalUsers, activeUsers, inactiveUsers, usersByRole }.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { userStats } from '../features/users/user-stats.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('users'), run: async ({ ctx }) => userStats(ctx) },
});
