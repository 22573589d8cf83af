// Every 15 minutes (DESIGN §6): 5 or more deletes by one user within 10 minutes is a security
// anomaly, stored once per user and window for the Audit Trail. Runs look back further than
// their interval so a burst across two runs is still seen; deletes already inside a recorded
// window are skipped, and (username, window_start) is unique, so a rerun adds nothing.
import { z } from 'zod';
import { defineJob } from '../define.ts';

/** The specification's fixed text (spec 3 §2.2, Anomalies tab). */
export const ANOMALY_TEXT =
  'Multiple delete operations detected from this user. This may indicate unauthorized access or data manipulation.';

export default defineJob({
  name: 'anomaly-detection',
  description: 'Flags users with 5 or more deletes within 10 minutes',
  payload: z.object({
    threshold: z.number().int().min(2).default(5),
    windowMinutes: z.number().int().min(1).default(10),
    lookbackMinutes: z.number().int().min(1).default(60),
  }),
  queue: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 300, policy: 'singleton' },
  cron: '*/15 * * * *',
  async handler(payload, ctx) {
    const windowMs = payload.windowMinutes * 60_000;
    const since = new Date(Date.now() - Math.max(payload.lookbackMinutes * 60_000, windowMs)).toISOString();
    const deletes = await ctx.db
      .selectFrom('auditLogs')
      .innerJoin('users', 'users.id', 'auditLogs.userId')
      .select(['auditLogs.userId', 'users.username', 'auditLogs.timestamp'])
      .where('auditLogs.action', '=', 'delete')
      .where('auditLogs.timestamp', '>=', since)
      .orderBy('auditLogs.userId')
      .orderBy('auditLogs.timestamp')
      .execute();
    const byUser = new Map<number, { username: string; times: number[] }>();
    for (const row of deletes) {
      const entry = byUser.get(row.userId!) ?? { username: row.username, times: [] };
      entry.times.push(Date.parse(row.timestamp));
      byUser.set(row.userId!, entry);
    }
    let created = 0;
    for (const [userId, { username, times }] of byUser) {
      const last = await ctx.db
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
        if (count >= payload.threshold) {
          const result = await ctx.db
            .insertInto('securityAnomalies')
            .values({
              userId,
              username,
              anomalyType: 'multiple_deletes',
              deleteCount: count,
              windowStart: new Date(open[i]).toISOString(),
              windowEnd: new Date(open[j]).toISOString(),
              description: ANOMALY_TEXT,
              createdAt: new Date().toISOString(),
            })
            .onConflict((oc) => oc.columns(['username', 'windowStart']).doNothing())
            .executeTakeFirst();
          created += Number(result.numInsertedOrUpdatedRows ?? 0);
          i = j + 1;
        } else {
          i += 1;
        }
      }
    }
    return { users: byUser.size, created };
  },
});
