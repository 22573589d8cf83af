// GET /api/api-integration-sync-logs?limit&offset&endpointId: sync runs, newest first; X-Total-Count.
import { apiRoute, pagedAnswer } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { listSyncLogs } from '../features/integrations/integration-sync.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('integrations'), run: pagedAnswer(listSyncLogs) },
});
