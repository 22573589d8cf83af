// The Notifications page's category tabs, newest first: a category with few notifications among
// many is read from its own index instead of walking every notification to find its page.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('notifications_category_created_idx')
    .on('notifications')
    .columns(['category', 'created_at', 'id'])
    .execute();
}
