// GET /api/notifications?isRead=false&category=…&limit&offset: the caller's notifications,
// newest first, dismissed ones left out; X-Total-Count.
import { apiRoute, pagedList } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { API_MAX_LIMIT } from '../platform/lib/paging.ts';
import { listNotifications, parseNotificationQuery } from '../features/notifications/notifications.server.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.signedIn,
    run: async ({ request, ctx }) => {
      const url = new URL(request.url);
      const query = parseNotificationQuery(Object.fromEntries(url.searchParams));
      const { rows, total } = await listNotifications(ctx, query);
      return pagedList(url, rows, {
        rows: rows.length,
        total,
        limit: query.limit ?? API_MAX_LIMIT,
        offset: query.offset ?? 0,
      });
    },
  },
});
