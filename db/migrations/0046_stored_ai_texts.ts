// What the AI jobs write for everybody is kept in every reader's language too (docs/languages.md):
// - an expense anomaly's explanation as a message and its values (JSON), which each reader's
//   formats fill in;
// - an insight's title, description and action items in each language other than English, as
//   the job words them (JSON by language).
// Beside the English the /api answers. Rows written before have none and show their English.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('expense_anomalies').addColumn('explanation_text', 'text').execute();
  await db.schema.alterTable('ai_insights').addColumn('texts', 'text').execute();
}
