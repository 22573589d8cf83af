// GET /api/users/activity/statistics: counts over the audit trail and sessions.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { userActivityStatistics } from '../features/users/user-activity.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('users'), run: async ({ ctx }) => userActivityStatistics(ctx) },
});
