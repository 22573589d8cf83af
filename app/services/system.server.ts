// System errors and recovery actions (spec 1 §3), written by the worker and read later by
// System Monitoring.
import { inTransaction, type Db } from './context.ts';
import { toJson } from '../../db/dialect.ts';
import type { ErrorSeverity, RecoveryStatus } from '../../db/types.ts';
import { failInterruptedBackups } from './backups.server.ts';
import { failInterruptedSyncs } from './integration-sync.server.ts';

export interface SystemErrorInput {
  severity?: ErrorSeverity;
  errorType: string;
  message: string;
  endpoint?: string | null;
  method?: string | null;
  stack?: string | null;
  details?: Record<string, unknown> | null;
  /**
   * Identifies this occurrence (e.g. the dead-letter job id): recording the same occurrence
   * twice (at-least-once delivery) counts it once.
   */
  occurrenceKey?: string;
}

/**
 * Records an error; an unresolved error of the same type, endpoint and message counts one more
 * occurrence instead of adding a row.
 */
export async function recordSystemError(db: Db, input: SystemErrorInput): Promise<number> {
  const now = new Date().toISOString();
  return inTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('systemErrors')
      .select(['id', 'occurrenceCount', 'details'])
      .where('errorType', '=', input.errorType)
      .where('message', '=', input.message)
      .where('endpoint', input.endpoint == null ? 'is' : '=', input.endpoint ?? null)
      .where('isResolved', '=', false)
      .executeTakeFirst();
    const details = input.occurrenceKey ? { ...input.details, occurrenceKey: input.occurrenceKey } : input.details ?? null;
    if (existing) {
      if (input.occurrenceKey && existing.details?.occurrenceKey === input.occurrenceKey) return existing.id;
      await trx
        .updateTable('systemErrors')
        .set({
          occurrenceCount: existing.occurrenceCount + 1,
          lastOccurrence: now,
          stack: input.stack ?? null,
          details: toJson(details),
        })
        .where('id', '=', existing.id)
        .execute();
      return existing.id;
    }
    const row = await trx
      .insertInto('systemErrors')
      .values({
        severity: input.severity ?? 'high',
        errorType: input.errorType,
        message: input.message,
        endpoint: input.endpoint ?? null,
        method: input.method ?? null,
        stack: input.stack ?? null,
        details: toJson(details),
        firstOccurrence: now,
        lastOccurrence: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

export async function recordRecoveryAction(
  db: Db,
  input: { actionType: string; status: RecoveryStatus; description?: string; result?: string; systemErrorId?: number | null },
): Promise<number> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('recoveryActions')
    .values({
      actionType: input.actionType,
      status: input.status,
      description: input.description ?? null,
      result: input.result ?? null,
      systemErrorId: input.systemErrorId ?? null,
      createdAt: now,
      updatedAt: now,
      completedAt: input.status === 'executing' ? null : now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const INTERRUPTED = 'Interrupted by restart';

/**
 * Rows a crashed run left `executing` are marked failed ('Interrupted by restart'), and the
 * clean-up itself is recorded as a completed recovery action. `olderThan` limits it to rows not
 * touched since then (on PostgreSQL other live workers may own recent rows).
 */
export async function recoverInterrupted(db: Db, options: { olderThan?: Date; backupDir?: string } = {}): Promise<number> {
  const now = new Date().toISOString();
  let update = db
    .updateTable('recoveryActions')
    .set({ status: 'failed', result: INTERRUPTED, updatedAt: now, completedAt: now })
    .where('status', '=', 'executing');
  if (options.olderThan) update = update.where('updatedAt', '<', options.olderThan.toISOString());
  const rows = await update.returning('id').execute();
  const backups = await failInterruptedBackups({ db }, INTERRUPTED, { olderThan: options.olderThan, dir: options.backupDir });
  const syncs = await failInterruptedSyncs(db, INTERRUPTED, { olderThan: options.olderThan });
  if (syncs.length) {
    await recordRecoveryAction(db, {
      actionType: 'restart_cleanup',
      status: 'completed',
      description: 'API integration syncs left running by a previous run were marked failed',
      result: `${syncs.length} interrupted sync(s) marked failed: ${INTERRUPTED} (ids ${syncs.join(', ')})`,
    });
  }
  if (backups.length) {
    await recordRecoveryAction(db, {
      actionType: 'restart_cleanup',
      status: 'completed',
      description: 'Backups left in progress by a previous run were marked failed',
      result: `${backups.length} interrupted backup(s) marked failed: ${INTERRUPTED} (ids ${backups.join(', ')})`,
    });
  }
  if (rows.length) {
    await recordRecoveryAction(db, {
      actionType: 'restart_cleanup',
      status: 'completed',
      description: 'Work left running by a previous run was marked failed',
      result: `${rows.length} interrupted action(s) marked failed: ${INTERRUPTED} (ids ${rows.map((r) => r.id).join(', ')})`,
    });
  }
  return rows.length + backups.length + syncs.length;
}
