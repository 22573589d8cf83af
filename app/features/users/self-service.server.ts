// Work on one's own account (a password change, a profile edit, one's settings) is not work on
// the books: it is neither an entry nor an edit in the activity figures. The kept all-time counts
// leave it out in their triggers (db/audit-user-counts.ts); the window counts, which are counted
// by action from the indexes, take off these few entries, found through the record index.
import { SELF_SERVICE_TABLES, USER_COUNTED_ACTIONS } from '../../../db/audit-user-counts.ts';
import type { Db } from '../../platform/context.ts';

export interface SelfServiceEntry {
  userId: number;
  action: 'create' | 'update';
  timestamp: string;
}

/**
 * The creates and updates in [from, to] that users (`userIds`, or everyone) made to their own
 * users row and their settings.
 */
export async function selfServiceEntries(
  db: Db,
  userIds: readonly number[] | null,
  from: string,
  to: string,
): Promise<SelfServiceEntry[]> {
  if (userIds !== null && userIds.length === 0) return [];
  const account = db
    .selectFrom('auditLogs')
    .select(['auditLogs.userId', 'auditLogs.action', 'auditLogs.timestamp'])
    .where('auditLogs.tableName', '=', SELF_SERVICE_TABLES.account)
    .$if(userIds !== null, (q) => q.where('auditLogs.recordId', 'in', [...userIds!]))
    .whereRef('auditLogs.recordId', '=', 'auditLogs.userId');
  const settings = db
    .selectFrom('auditLogs')
    .select(['auditLogs.userId', 'auditLogs.action', 'auditLogs.timestamp'])
    .where('auditLogs.tableName', '=', SELF_SERVICE_TABLES.settings)
    .where('auditLogs.userId', 'is not', null)
    .$if(userIds !== null, (q) =>
      q.where('auditLogs.recordId', 'in', (eb) =>
        eb
          .selectFrom('userSettings')
          .select('id')
          .where('userId', 'in', [...userIds!]),
      ),
    );
  const rows = await account
    .where('auditLogs.action', 'in', [...USER_COUNTED_ACTIONS])
    .where('auditLogs.timestamp', '>=', from)
    .where('auditLogs.timestamp', '<=', to)
    .unionAll(
      settings
        .where('auditLogs.action', 'in', [...USER_COUNTED_ACTIONS])
        .where('auditLogs.timestamp', '>=', from)
        .where('auditLogs.timestamp', '<=', to),
    )
    .execute();
  return rows.map((r) => ({
    userId: r.userId!,
    action: r.action as SelfServiceEntry['action'],
    timestamp: r.timestamp,
  }));
}

/** The entries and edits of each user among `entries`. */
export function selfServiceCounts(
  entries: readonly SelfServiceEntry[],
): Map<number, { entries: number; edits: number }> {
  const out = new Map<number, { entries: number; edits: number }>();
  for (const e of entries) {
    const c = out.get(e.userId) ?? { entries: 0, edits: 0 };
    if (e.action === 'create') c.entries += 1;
    else c.edits += 1;
    out.set(e.userId, c);
  }
  return out;
}
