// GET /api/api-integrations/sync-logs?limit=5&offset=0: the dashboard's sync view.
import { apiRoute, pagedAnswer } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { listSyncLogs } from '../features/integrations/integration-sync.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('integrations'), run: pagedAnswer(listSyncLogs) },
});
