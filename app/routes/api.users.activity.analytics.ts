// GET /api/users/activity/analytics: { summary, users } from sessions and the audit trail.
import { apiRoute } from '../http/api.server.ts';
import { userActivityAnalytics } from '../services/user-activity.server.ts';

export const { loader, action } = apiRoute({ GET: async ({ ctx }) => userActivityAnalytics(ctx) });
