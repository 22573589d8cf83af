// Why an import failed, in every reader's language (docs/languages.md): the English the /api
// answers stays in `error`; the same words in each other language, as the import worded them,
// beside it (JSON by language). Imports that failed before have none and show their English.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('imports').addColumn('error_texts', 'text').execute();
}
