// Two things that made the product noisier than the work it records:
// - the per-user audit counts (0035) counted a user's changes to their own account (password,
//   profile, settings) as entries and edits: the triggers are replaced by ones that leave them
//   out (db/audit-user-counts.ts), and the counts are taken again;
// - a repeated event (the same title about the same row within the repeat window) now updates
//   the unread notification it repeats and counts it (repeat_count) instead of adding another; the
//   index finds that notification.
import type { Kysely } from 'kysely';
import { replaceAuditUserCountTriggers } from '../audit-user-counts.ts';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await replaceAuditUserCountTriggers(db, d.dialect);
  await db.schema
    .alterTable('notifications')
    .addColumn('repeat_count', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('notifications_repeat_idx')
    .on('notifications')
    .columns(['title', 'related_table', 'related_record_id', 'updated_at'])
    .execute();
}
