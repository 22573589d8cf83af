// Security anomalies (docs/writes.md): 5 or more deletes by one user within 10 minutes,
// stored once per user and window for the Audit Trail. A run looks back further than the job's
// interval so a burst across two runs is still seen; deletes already inside a recorded window are
// skipped, and (username, window_start) is unique, so running again adds nothing.
import { inTransaction, requirePermission, type ServiceContext } from '../../platform/context.ts';
import { securityAnomaly } from '../notifications/index.server.ts';

/** The Anomalies tab's fixed text. */
export const ANOMALY_TEXT =
  'Multiple delete operations detected from this user. This may indicate unauthorized access or data manipulation.';

export interface DeleteAnomalyOptions {
  /** Deletes within one window that make an anomaly. */
  threshold: number;
  windowMinutes: number;
  /** How far back this run reads deletes (at least one window). */
  lookbackMinutes: number;
  now?: Date;
}

/** Records the anomalies found in recent deletes; the system (worker) or a reader of audit logs. */
export async function detectDeleteAnomalies(
  ctx: ServiceContext,
  options: DeleteAnomalyOptions,
): Promise<{ users: number; created: number }> {
  requirePermission(ctx, 'auditLogs');
  const now = options.now ?? new Date();
  const windowMs = options.windowMinutes * 60_000;
  const since = new Date(now.getTime() - Math.max(options.lookbackMinutes * 60_000, windowMs)).toISOString();
  const found: { id?: number; username: string; companyId: number | null; deleteCount: number }[] = [];
  const counts = await inTransaction(ctx.db, async (db) => {
    const deletes = await db
      .selectFrom('auditLogs')
      .innerJoin('users', 'users.id', 'auditLogs.userId')
      .select(['auditLogs.userId', 'users.username', 'users.companyId', 'auditLogs.timestamp'])
      .where('auditLogs.action', '=', 'delete')
      .where('auditLogs.timestamp', '>=', since)
      .orderBy('auditLogs.userId')
      .orderBy('auditLogs.timestamp')
      .execute();
    const byUser = new Map<number, { username: string; companyId: number | null; times: number[] }>();
    for (const row of deletes) {
      const entry = byUser.get(row.userId!) ?? { username: row.username, companyId: row.companyId, times: [] };
      entry.times.push(Date.parse(row.timestamp));
      byUser.set(row.userId!, entry);
    }
    let created = 0;
    for (const [userId, { username, companyId, times }] of byUser) {
      const last = await db
        .selectFrom('securityAnomalies')
        .select((eb) => eb.fn.max('windowEnd').as('windowEnd'))
        .where('username', '=', username)
        .executeTakeFirst();
      const coveredUntil = last?.windowEnd ? Date.parse(last.windowEnd) : -Infinity;
      const open = times.filter((t) => t > coveredUntil);
      // Greedy, from the earliest uncovered delete: a window is [first, first + 10 min].
      let i = 0;
      while (i < open.length) {
        let j = i;
        while (j + 1 < open.length && open[j + 1] - open[i] <= windowMs) j += 1;
        const count = j - i + 1;
        if (count >= options.threshold) {
          const result = await db
            .insertInto('securityAnomalies')
            .values({
              userId,
              username,
              anomalyType: 'multiple_deletes',
              deleteCount: count,
              windowStart: new Date(open[i]).toISOString(),
              windowEnd: new Date(open[j]).toISOString(),
              description: ANOMALY_TEXT,
              createdAt: now.toISOString(),
            })
            .onConflict((oc) => oc.columns(['username', 'windowStart']).doNothing())
            .executeTakeFirst();
          const inserted = Number(result.numInsertedOrUpdatedRows ?? 0);
          created += inserted;
          if (inserted)
            found.push({
              id: result.insertId !== undefined ? Number(result.insertId) : undefined,
              username,
              companyId,
              deleteCount: count,
            });
          i = j + 1;
        } else {
          i += 1;
        }
      }
    }
    return { users: byUser.size, created };
  });
  // Told once the anomalies are stored: the admins of the user's company.
  for (const anomaly of found) await securityAnomaly(ctx, { ...anomaly, windowMinutes: options.windowMinutes });
  return counts;
}
