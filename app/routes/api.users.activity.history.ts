// GET /api/users/activity/history → { events, total, totalPages } (25 a page; filters userId,
// startDate, endDate, action, tableName; limit/offset or page).
import { apiRoute, pagedList } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { userActivityHistory } from '../features/users/user-activity.server.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.to('users'),
    run: async ({ request, ctx }) => {
      const url = new URL(request.url);
      const { events, total, totalPages, limit, offset } = await userActivityHistory(
        ctx,
        Object.fromEntries(url.searchParams),
      );
      return pagedList(
        url,
        { events, total, totalPages },
        { rows: events.length, total, limit, offset },
        { page: null },
      );
    },
  },
});
