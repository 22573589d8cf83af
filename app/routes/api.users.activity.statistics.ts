// GET /api/users/activity/statistics: counts over the audit trail and sessions.
import { apiRoute } from '../http/api.server.ts';
import { userActivityStatistics } from '../services/user-activity.server.ts';

export const { loader, action } = apiRoute({ GET: async ({ ctx }) => userActivityStatistics(ctx) });
