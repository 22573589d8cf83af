// Recovery actions, written by the worker and read later by System Monitoring. Recording a
// system error is the platform's (app/platform/system-errors.server.ts).
import type { Db } from '../../platform/context.ts';
import type { RecoveryStatus } from '../../../db/types.ts';
import { failInterruptedBackups } from '../backups/backups.server.ts';
import { failInterruptedSyncs } from '../integrations/integration-sync.server.ts';

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
