// What the job faults and the admins of the load share: an endpoint syncing a loopback remote's
// records into actual revenue, and whether the backups and sync runs asked for have ended.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

type Api = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown> | null>;

/**
 * A source at `baseUrl` and its endpoint `path`, made by the caller's API client. The remote
 * answers `{ data: [{ ref, amount, day, source }] }`; `ref` is the record's key.
 */
export async function createSyncEndpoint(
  api: Api,
  endpoint: { sourceName: string; baseUrl: string; name: string; path: string; companyId: number },
): Promise<number> {
  const source = await api('POST', '/api/api-integration-sources', {
    name: endpoint.sourceName,
    baseUrl: endpoint.baseUrl,
  });
  const created = await api('POST', '/api/api-integration-endpoints', {
    sourceId: source!.id,
    name: endpoint.name,
    endpoint: endpoint.path,
    targetTable: 'actual_revenue',
    companyId: endpoint.companyId,
    mappingConfig: JSON.stringify({
      key: 'ref',
      fields: {
        amount: { path: 'amount', transform: 'number' },
        revenueDate: { path: 'day', transform: 'date' },
        source: 'source',
      },
    }),
  });
  return Number(created!.id);
}

/** True once every one of the backups is completed and none of the sync runs is still running. */
export async function backupsAndSyncsEnded(
  db: Kysely<Database>,
  backupIds: readonly number[],
  syncLogIds: readonly number[],
): Promise<boolean> {
  const pending = backupIds.length
    ? await db
        .selectFrom('backups')
        .select('id')
        .where('id', 'in', backupIds)
        .where('status', '!=', 'completed')
        .execute()
    : [];
  const running = syncLogIds.length
    ? await db
        .selectFrom('apiIntegrationSyncLogs')
        .select('id')
        .where('id', 'in', syncLogIds)
        .where('status', '=', 'running')
        .execute()
    : [];
  return pending.length === 0 && running.length === 0;
}
