// GET /api/users/activity/history → { events, total, totalPages } (25 a page; filters userId,
// startDate, endDate, action, tableName; limit/offset or page).
import { apiRoute, json } from '../http/api.server.ts';
import { userActivityHistory } from '../services/user-activity.server.ts';

export const { loader, action } = apiRoute({
  GET: async ({ request, ctx }) => {
    const url = new URL(request.url);
    const { events, total, totalPages, limit, offset } = await userActivityHistory(ctx, Object.fromEntries(url.searchParams));
    const headers = new Headers({ 'X-Total-Count': String(total) });
    if (offset + events.length < total) {
      url.searchParams.delete('page');
      url.searchParams.set('limit', String(limit));
      url.searchParams.set('offset', String(offset + limit));
      headers.set('Link', `<${url.pathname}${url.search}>; rel="next"`);
    }
    return json({ events, total, totalPages }, { headers });
  },
});
