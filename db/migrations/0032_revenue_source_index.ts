// The revenue lists' Source filter offers the distinct sources by jumping from one to the next
// in an index (app/platform/resources/resource-choices.server.ts). Over every company that is the
// (source, …) index of each table; for a user or a screen of one company the jump needs the
// company first: revenue_projections has it (revenue_projections_plan_key_idx), actual_revenue
// had only (company_id, revenue_date, id), so each jump sorted the company's rows.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('actual_revenue_company_id_source_idx')
    .on('actual_revenue')
    .columns(['company_id', 'source'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('actual_revenue_company_id_source_idx').execute();
}
