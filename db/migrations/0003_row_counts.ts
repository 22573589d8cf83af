// Row counts per table and company, kept by triggers, so an unfiltered list of a million
// rows knows its total ('Showing 1 to 10 of 1,000,000 results', X-Total-Count) without
// counting them on every request. Filtered lists still count with their indexes.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export const COUNTED_TABLES = [
  'budgets',
  'actual_expenses',
  'revenue_projections',
  'actual_revenue',
  'subscriber_metrics',
];

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('row_counts')
    .addColumn('table_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('row_count', d.bigint, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('row_counts_pk', ['table_name', 'company_id'])
    .execute();

  if (d.dialect === 'postgres') {
    // Qualified with this schema: the function runs with whatever search_path the caller has.
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    const counts = `${sql.id(rows[0].schema).compile(db).sql}.row_counts`;
    await sql
      .raw(
        `
      create function ${sql.id(rows[0].schema).compile(db).sql}.row_counts_track() returns trigger language plpgsql as $$
      begin
        if tg_op in ('INSERT', 'UPDATE') then
          insert into ${counts} (table_name, company_id, row_count) values (tg_table_name, new.company_id, 1)
          on conflict (table_name, company_id) do update set row_count = ${counts}.row_count + 1;
        end if;
        if tg_op in ('DELETE', 'UPDATE') then
          update ${counts} set row_count = row_count - 1 where table_name = tg_table_name and company_id = old.company_id;
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    for (const table of COUNTED_TABLES) {
      await sql
        .raw(
          `create trigger ${table}_count_rows after insert or delete on ${table} for each row execute function row_counts_track()`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${table}_count_moves after update of company_id on ${table} for each row
        when (old.company_id is distinct from new.company_id) execute function row_counts_track()`,
        )
        .execute(db);
    }
  } else {
    for (const table of COUNTED_TABLES) {
      const add = (company: string) => `
        insert or ignore into row_counts (table_name, company_id, row_count) values ('${table}', ${company}, 0);
        update row_counts set row_count = row_count + 1 where table_name = '${table}' and company_id = ${company};`;
      const remove = (company: string) => `
        update row_counts set row_count = row_count - 1 where table_name = '${table}' and company_id = ${company};`;
      await sql
        .raw(`create trigger ${table}_count_insert after insert on ${table} begin ${add('new.company_id')} end`)
        .execute(db);
      await sql
        .raw(`create trigger ${table}_count_delete after delete on ${table} begin ${remove('old.company_id')} end`)
        .execute(db);
      await sql
        .raw(
          `create trigger ${table}_count_move after update of company_id on ${table}
        when old.company_id <> new.company_id begin ${remove('old.company_id')} ${add('new.company_id')} end`,
        )
        .execute(db);
    }
  }
  for (const table of COUNTED_TABLES) {
    await sql
      .raw(
        `insert into row_counts (table_name, company_id, row_count)
      select '${table}', company_id, count(*) from ${table} group by company_id`,
      )
      .execute(db);
  }
}
