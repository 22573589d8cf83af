// GET /api/audit-logs/anomalies: the recorded security anomalies, newest first, each with what
// its deletes removed (`deleted`: table and count).
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { listSecurityAnomalies, withDeletedTallies } from '../services/audit-trail.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('auditLogs'), run: async ({ ctx }) => withDeletedTallies(ctx, await listSecurityAnomalies(ctx)) } });
