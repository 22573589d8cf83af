// GET /api/users/activity/analytics: { summary, users } from sessions and the audit trail.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { userActivityAnalytics } from '../features/users/user-activity.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('users'), run: async ({ ctx }) => userActivityAnalytics(ctx) },
});
