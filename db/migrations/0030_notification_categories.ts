// The bell's kept count split by category (app/features/notifications/notification-badges.server.ts): the
// Notifications page's category tabs total from it instead of counting what reaches the reader.
// Rows kept before have none and are counted again when next read.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification_badges').addColumn('by_category', 'text').execute();
}
