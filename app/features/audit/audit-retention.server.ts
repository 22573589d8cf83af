// Audit retention (docs/writes.md, docs/jobs.md; AUDIT_RETENTION_DAYS): the nightly audit-retention job deletes
// audit log entries older than the cut-off, and the data versions older than the cut-off of
// records that no longer exist. Versions of a record that still exists are never pruned, however
// old: they are its history and what "restore a version" works from.
//
// Rules, decided here:
// - Audit entries: every entry whose timestamp is before the cut-off goes (sign-ins included).
// - Versions of a deleted record: every version created before the cut-off goes, the last one
//   included. The last version of a deleted record is its `delete` version, which holds the
//   record's data as it was deleted: while that is younger than the cut-off the record can still
//   be restored from it; once it is older, the deleted record is forgotten entirely.
// - A record "exists" when its table has a row with that id (a record deleted and later restored
//   under its old id exists again: all its versions are kept). The tables are the declared
//   resources (RESOURCE_LIST), `users` and `user_settings`; versions of any other table name are
//   kept (nothing to check their existence against).
// - Deletes run in batches (`batchSize` ids per statement, each batch its own short transaction)
//   until a batch comes back short, so a long prune never holds locks that block the writes of
//   the web processes. Deleting by cut-off is idempotent: a retried job finds less or nothing.
//
// Who: the system (the job, the CLI) or an administrator who is not limited to one company.
import { sql } from 'kysely';
import { snakeCase } from '../../platform/lib/names.ts';
import { RESOURCE_LIST } from '../resources.ts';
import { inTransaction, requirePermission, type Db, type ServiceContext } from '../../platform/context.ts';
import { invalid } from '../../platform/errors.ts';

export const DEFAULT_PRUNE_BATCH_SIZE = 1000;
const DAY_MS = 86_400_000;

/** The versioned tables whose rows can be looked up: snake_case (as stored in data_versions) → table. */
export function versionedTables(): Map<string, string> {
  const tables = ['users', 'userSettings', ...RESOURCE_LIST.map((def) => def.table)];
  return new Map(tables.map((table) => [snakeCase(table), table]));
}

export interface PruneOptions {
  /** Entries older than this many days go (a whole number, at least 1). */
  retentionDays: number;
  /** The moment the cut-off is counted back from (default: now). */
  now?: Date;
  /** Rows deleted per statement (default 1000). */
  batchSize?: number;
}

export interface PruneResult {
  /** ISO instant: rows strictly older than it were pruned. */
  cutoff: string;
  /** Audit log entries deleted. */
  auditLogs: number;
  /** Data versions (of deleted records) deleted. */
  dataVersions: number;
  /** Delete statements that removed rows (each its own transaction). */
  batches: number;
}

export async function pruneAuditTrail(ctx: ServiceContext, options: PruneOptions): Promise<PruneResult> {
  // An owner or admin not limited to one company (the CLI and the worker: always).
  requirePermission(ctx, 'installation');
  const { retentionDays, batchSize = DEFAULT_PRUNE_BATCH_SIZE, now = new Date() } = options;
  if (!Number.isSafeInteger(retentionDays) || retentionDays < 1)
    throw invalid([{ field: 'retentionDays', message: 'must be a whole number of at least 1' }]);
  if (!Number.isSafeInteger(batchSize) || batchSize < 1)
    throw invalid([{ field: 'batchSize', message: 'must be a whole number of at least 1' }]);
  const cutoffMs = now.getTime() - retentionDays * DAY_MS;
  if (!Number.isFinite(cutoffMs) || Number.isNaN(new Date(cutoffMs).getTime()))
    throw invalid([{ field: 'retentionDays', message: 'is too large' }]);
  const cutoff = new Date(cutoffMs).toISOString();

  const result: PruneResult = { cutoff, auditLogs: 0, dataVersions: 0, batches: 0 };

  /** Runs `batch` (one delete statement, in its own transaction) until it deletes fewer than batchSize rows. */
  const drain = async (batch: (db: Db) => Promise<number>): Promise<number> => {
    let total = 0;
    for (;;) {
      const deleted = await inTransaction(ctx.db, batch);
      if (deleted > 0) result.batches += 1;
      total += deleted;
      if (deleted < batchSize) return total;
    }
  };

  result.auditLogs = await drain(async (db) => {
    const deleted = await db
      .deleteFrom('auditLogs')
      .where('id', 'in', (eb) =>
        eb.selectFrom('auditLogs').select('id').where('timestamp', '<', cutoff).orderBy('id').limit(batchSize),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  });

  // Only the table names that have old versions at all (usually a handful).
  const names = await ctx.db
    .selectFrom('dataVersions')
    .select('tableName')
    .distinct()
    .where('createdAt', '<', cutoff)
    .execute();
  const tables = versionedTables();
  for (const { tableName } of names) {
    const table = tables.get(tableName);
    if (!table) continue;
    result.dataVersions += await drain(async (db) => {
      // The existence check runs in the same statement as the delete, so a record restored in
      // between keeps its versions.
      const deleted = await db
        .deleteFrom('dataVersions')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('dataVersions as v')
            .select('v.id')
            .where('v.tableName', '=', tableName)
            .where('v.createdAt', '<', cutoff)
            // (The table name comes from the declared list above, never from the stored rows.)
            .where(
              sql<boolean>`not exists (select 1 from ${sql.table(snakeCase(table))} as r where r.id = ${sql.ref('v.recordId')})`,
            )
            .orderBy('v.id')
            .limit(batchSize),
        )
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    });
  }
  return result;
}
