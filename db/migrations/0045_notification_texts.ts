// The notifications the product sends keep their words as messages and values (JSON, beside
// the English title and message the /api answers), so each reader sees them in their own
// language (docs/languages.md). Notifications an admin typed have none and show as typed.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('texts', 'text').execute();
}
