// GET /api/users/activity/analytics: { summary, users } from sessions and the audit trail.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { userActivityAnalytics } from '../services/user-activity.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('users'), run: async ({ ctx }) => userActivityAnalytics(ctx) } });
