// GET /api/data-versions?tableName&recordId: the versions of one record, newest first.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { listDataVersions } from '../features/audit/audit-trail.server.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.to('auditLogs'),
    run: async ({ request, ctx }) => {
      const params = new URL(request.url).searchParams;
      return listDataVersions(ctx, {
        tableName: params.get('tableName') ?? undefined,
        recordId: params.get('recordId') ?? undefined,
      });
    },
  },
});
