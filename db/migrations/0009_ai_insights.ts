// AI insights: computed from the books by the nightly ai-insights job (or
// on demand) and kept until the next run for the same company replaces them. company_id null:
// insights about the whole group.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

const sqlIn = (column: string, values: string[]) => sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('ai_insights')
    .addColumn('id', 'integer', d.id)
    .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('type', 'varchar(20)', (c) =>
      c.notNull().check(sqlIn('type', ['trend', 'forecast', 'optimization', 'alert'])),
    )
    .addColumn('priority', 'varchar(20)', (c) =>
      c.notNull().check(sqlIn('priority', ['critical', 'high', 'medium', 'low'])),
    )
    .addColumn('impact', 'varchar(20)', (c) => c.notNull().check(sqlIn('impact', ['positive', 'negative', 'neutral'])))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('action_items', d.json, (c) => c.notNull())
    .addColumn('generated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();
  await db.schema
    .createIndex('ai_insights_company_idx')
    .on('ai_insights')
    .columns(['company_id', 'generated_at'])
    .execute();
}
