// GET /api/api-integrations/sync-logs?limit=5&offset=0: the dashboard's sync view.
import { apiRoute, pagedAnswer } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { listSyncLogs } from '../services/integration-sync.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('integrations'), run: pagedAnswer(listSyncLogs) } });
