// GET /api/audit-logs/anomalies: the recorded security anomalies, newest first.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { listSecurityAnomalies } from '../services/audit-trail.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('auditLogs'), run: async ({ ctx }) => listSecurityAnomalies(ctx) } });
