// The Notifications list of a reader below administrator reads each of their audiences newest
// first and merges them (app/features/notifications/notifications.server.ts, audiences()): their own
// notifications through notifications_target_user_idx, and those addressed to no user through
// this index, one range per target role (or none). One walk of every notification read past all
// those addressed to administrators and other people, and a viewer's few were found only at the
// end of it, so its cost grew with every notification written.
// PostgreSQL also plans no parallel scans of notifications: a page of them walked by two workers
// cost more in starting them than the walk itself, and a count of them all is no faster.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createIndex('notifications_audience_idx')
    .on('notifications')
    .columns(['target_user_id', 'target_user_role', 'created_at', 'id'])
    .execute();
  if (d.dialect === 'postgres') await sql`alter table notifications set (parallel_workers = 0)`.execute(db);
}

export async function down(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema.dropIndex('notifications_audience_idx').execute();
  if (d.dialect === 'postgres') await sql`alter table notifications reset (parallel_workers)`.execute(db);
}
