// POST /api/data-versions/{id}/restore: the record gets that version's data back (an audited
// update, or a create with its old id when it was deleted). Needs the audit-logs permission
// here, and edit (or create) on the record's table in the service.
import { apiRoute, idParam, apiJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { restoreVersion } from '../features/audit/audit-trail.server.ts';

export const { loader, action, access } = apiRoute(
  {
    POST: {
      allow: allow.to('auditLogs'),
      run: async ({ params, ctx }) => {
        const { record, version, created } = await restoreVersion(ctx, idParam(params.id));
        return apiJson({ restored: version.version, created, record });
      },
    },
  },
  { companyScoped: true },
);
