// GET /api/notifications?isRead=false&category=…&limit&offset: the caller's notifications,
// newest first, dismissed ones left out (spec 1 §7); X-Total-Count.
import { apiRoute, json, pagingHeaders } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { API_MAX_LIMIT } from '../lib/paging.ts';
import { listNotifications, parseNotificationQuery } from '../services/notifications.server.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.signedIn,
    run: async ({ request, ctx }) => {
      const url = new URL(request.url);
      const query = parseNotificationQuery(Object.fromEntries(url.searchParams));
      const { rows, total } = await listNotifications(ctx, query);
      const limit = query.limit ?? API_MAX_LIMIT;
      const offset = query.offset ?? 0;
      const more = offset + rows.length < total;
      return json(rows, { headers: pagingHeaders(url, total, more ? { limit, offset: offset + limit } : null) });
    },
  },
});
