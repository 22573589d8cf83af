// An expense anomaly keeps its explanation's words as a message and its values (JSON, beside the
// English the /api answers), so the Anomalies tab explains it in each reader's language
// (docs/languages.md). Rows found before have none and show their English.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('expense_anomalies').addColumn('explanation_text', 'text').execute();
}
