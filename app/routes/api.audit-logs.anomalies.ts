// GET /api/audit-logs/anomalies: the recorded security anomalies, newest first, each with what
// its deletes removed (`deleted`: table and count).
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { listSecurityAnomalies, withDeletedTallies } from '../features/audit/audit-trail.server.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.to('auditLogs'),
    run: async ({ ctx }) => withDeletedTallies(ctx, await listSecurityAnomalies(ctx)),
  },
});
