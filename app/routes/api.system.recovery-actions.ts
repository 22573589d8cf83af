// GET /api/system/recovery-actions?limit&offset (owners and admins): newest first; X-Total-Count.
import { apiRoute, pagedList } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { listRecoveryActions } from '../services/system-monitoring.server.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.to('admin'),
    run: async ({ request, ctx }) => {
      const url = new URL(request.url);
      const page = await listRecoveryActions(ctx, Object.fromEntries(url.searchParams));
      return pagedList(url, page.rows, { rows: page.rows.length, total: page.total, limit: page.limit, offset: page.offset });
    },
  },
});
