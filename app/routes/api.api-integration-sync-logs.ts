// GET /api/api-integration-sync-logs?limit&offset&endpointId: sync runs, newest first (spec 3 §7); X-Total-Count.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { syncLogsAnswer } from '../http/sync-logs.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('integrations'), run: syncLogsAnswer } });
