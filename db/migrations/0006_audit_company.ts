// The audit trail by company: every audit entry and data version records the
// company of the row it is about, so a user limited to one company reads only that company's
// history with an index, whatever the table. Existing entries take it from their
// data: the row's companyId, or its own id for a company.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  for (const table of ['audit_logs', 'data_versions']) {
    await db.schema.alterTable(table).addColumn('company_id', 'integer').execute();
  }
  await backfillAuditCompanies(db, d);
  await db.schema
    .createIndex('audit_logs_company_time_idx')
    .on('audit_logs')
    .columns(['company_id', 'timestamp'])
    .execute();
  await db.schema
    .createIndex('data_versions_company_idx')
    .on('data_versions')
    .columns(['company_id', 'table_name', 'record_id'])
    .execute();
}

/** Existing entries' companies, from their data (exported for its test). */
export async function backfillAuditCompanies(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  const field = (column: string) =>
    d.dialect === 'postgres'
      ? `(${column}->>'companyId')::integer`
      : `cast(json_extract(${column}, '$.companyId') as integer)`;
  await sql
    .raw(
      `update audit_logs set company_id = case when table_name = 'companies' then record_id
    else coalesce(${field('new_data')}, ${field('old_data')}) end`,
    )
    .execute(db);
  await sql
    .raw(
      `update data_versions set company_id = case when table_name = 'companies' then record_id else ${field('data')} end`,
    )
    .execute(db);
}
