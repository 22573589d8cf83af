// GET /api/api-integrations/sync-logs?limit=5&offset=0: the dashboard's sync view (spec 1, spec 3 §7).
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { syncLogsAnswer } from '../http/sync-logs.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('integrations'), run: syncLogsAnswer } });
