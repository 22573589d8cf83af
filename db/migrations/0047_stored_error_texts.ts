// Why an import or an integration sync failed (and which records a sync skipped), in every
// reader's language (docs/languages.md): the English the /api answers stays where it was; the
// same words in each other language, as the run worded them, beside it (JSON by language). Runs
// that ended before have none and show their English.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('imports').addColumn('error_texts', 'text').execute();
  await db.schema.alterTable('api_integration_sync_logs').addColumn('error_texts', 'text').execute();
}
