// The two sync-log calls (spec 3 §7): the screen's and the dashboard's (limit 5, offset 0) share one answer.
import type { AuthedApiArgs } from './api.server.ts';
import { pagedList } from './api.server.ts';
import { listSyncLogs } from '../services/integration-sync.server.ts';

export async function syncLogsAnswer({ request, ctx }: AuthedApiArgs): Promise<Response> {
  const url = new URL(request.url);
  const page = await listSyncLogs(ctx, Object.fromEntries(url.searchParams));
  return pagedList(url, page.rows, { rows: page.rows.length, total: page.total, limit: page.limit, offset: page.offset });
}
