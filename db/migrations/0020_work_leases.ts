// Leases for work that runs one at a time per user (app/platform/work-lease.server.ts): one row
// per running piece of work, claimed by an upsert, renewed while the work runs and deleted when
// it ends. The expiry (epoch milliseconds) frees the lease of a process that died holding it.
// With it, the cap of 10 push subscriptions per user (app/features/notifications/push.server.ts) applies to the
// rows already stored: a user's browsers beyond the 10 that subscribed last are removed.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('work_leases')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    .addColumn('acquired_at', d.bigint, (c) => c.notNull())
    .addColumn('expires_at', d.bigint, (c) => c.notNull())
    .execute();
  await sql`
    delete from push_subscriptions where id in (
      select id from (
        select id, row_number() over (partition by user_id order by updated_at desc, id desc) as n from push_subscriptions
      ) ranked where n > 10
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('work_leases').execute();
}
