// Recovery actions, written by the worker and read later by System Monitoring. Recording a
// system error is the platform's (app/platform/system-errors.server.ts).
import type { Db } from '../../platform/context.ts';
import type { RecoveryStatus } from '../../../db/types.ts';
import { msg } from '../../platform/i18n/messages.ts';

export async function recordRecoveryAction(
  db: Db,
  input: {
    actionType: string;
    status: RecoveryStatus;
    description?: string;
    result?: string;
    systemErrorId?: number | null;
  },
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

export const INTERRUPTED = msg('Interrupted by restart');

/** Work of another area a crashed run can leave running: how to mark it failed, and how the clean-up reads. */
export interface InterruptedWork {
  /** Marks the area's rows failed with `reason` (only rows not touched since `olderThan`); their ids. */
  sweep(reason: string, olderThan: Date | undefined): Promise<number[]>;
  /** 'Backups left in progress by a previous run were marked failed'. */
  description: string;
  /** 'interrupted backup(s)'. */
  noun: string;
}

/**
 * Rows a crashed run left `executing` are marked failed ('Interrupted by restart'), with the
 * other areas' interrupted work (`others`, given by the job assembly), and each clean-up is
 * recorded as a completed recovery action. `olderThan` limits it to rows not touched since then
 * (on PostgreSQL other live workers may own recent rows).
 */
export async function recoverInterrupted(
  db: Db,
  options: { olderThan?: Date } = {},
  others: readonly InterruptedWork[] = [],
): Promise<number> {
  const now = new Date().toISOString();
  let update = db
    .updateTable('recoveryActions')
    .set({ status: 'failed', result: INTERRUPTED, updatedAt: now, completedAt: now })
    .where('status', '=', 'executing');
  if (options.olderThan) update = update.where('updatedAt', '<', options.olderThan.toISOString());
  const rows = await update.returning('id').execute();
  const cleanups: { description: string; noun: string; ids: number[] }[] = [];
  for (const work of others) cleanups.push({ ...work, ids: await work.sweep(INTERRUPTED, options.olderThan) });
  cleanups.push({
    description: 'Work left running by a previous run was marked failed',
    noun: 'interrupted action(s)',
    ids: rows.map((r) => r.id),
  });
  for (const { description, noun, ids } of cleanups) {
    if (!ids.length) continue;
    await recordRecoveryAction(db, {
      actionType: 'restart_cleanup',
      status: 'completed',
      description,
      result: `${ids.length} ${noun} marked failed: ${INTERRUPTED} (ids ${ids.join(', ')})`,
    });
  }
  return cleanups.reduce((sum, cleanup) => sum + cleanup.ids.length, 0);
}
