// GET /api/users/stats: { totalUsers, activeUsers, inactiveUsers, usersByRole }.
import { apiRoute } from '../http/api.server.ts';
import { userStats } from '../services/users.server.ts';

export const { loader, action } = apiRoute({ GET: async ({ ctx }) => userStats(ctx) });
