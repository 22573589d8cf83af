// GET /api/users/activity/statistics: counts over the audit trail and sessions.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { userActivityStatistics } from '../services/user-activity.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('users'), run: async ({ ctx }) => userActivityStatistics(ctx) } });
