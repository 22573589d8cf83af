// GET /api/audit-logs: audit entries, newest first (tableName, userId, recordId, action, from,
// to, q, limit, offset), each with `user {id, username}` and `username`, its raw `changes` and
// `readableChanges` (label, old, new as the screens show them); X-Total-Count.
import { apiRoute, pagedList } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import {
  AUDIT_PAGE_SIZE,
  listAuditLogs,
  parseAuditQuery,
  withReadableChanges,
} from '../features/audit/audit-trail.server.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.to('auditLogs'),
    run: async ({ request, ctx }) => {
      const url = new URL(request.url);
      const query = parseAuditQuery(Object.fromEntries(url.searchParams));
      const { rows, total } = await listAuditLogs(ctx, query);
      return pagedList(url, await withReadableChanges(ctx, rows), {
        rows: rows.length,
        total,
        limit: query.limit ?? AUDIT_PAGE_SIZE,
        offset: query.offset ?? 0,
      });
    },
  },
});
