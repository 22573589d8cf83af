// One manual backup written at a time per user (app/features/backups/backups.server.ts): the database
// refuses a second in-progress manual backup of the same user, so two requests at once on
// several web processes cannot both start one. Backups made by the system (no user) are free.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('backups_one_running_manual_per_user')
    .on('backups')
    .column('created_by')
    .unique()
    .where(sql.ref('status'), '=', 'in_progress')
    .where(sql.ref('type'), '=', 'manual')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('backups_one_running_manual_per_user').execute();
}
