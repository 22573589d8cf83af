// PostgreSQL: rows per company and day of the big tables' date columns, kept by row
// triggers in the writer's transaction, as row_counts keeps rows per company. A deep page of a
// list sorted by that date (the default sort) then knows which day it starts on and how far
// into that day, from a few thousand counts, and reads the page from the date index there: no
// walk of half a million index entries, and nothing to find again after a write (the anchors
// of page-anchors.server.ts, which still serve the other sorts, hold only until the next one).
// SQLite needs none (its deep pages are fast from the index) and gets nothing.
import { sql, type Kysely } from 'kysely';

/** Day-counted tables (snake_case) and their date column; the table has a company_id. */
export const DAY_COUNTED: Readonly<Record<string, string>> = {
  actual_expenses: 'expense_date',
};

/** The statements that count a table's days again from its rows (after a load with its triggers off). */
export function dayRecountStatements(table: string): string[] {
  const column = DAY_COUNTED[table];
  if (!column) return [];
  return [
    `delete from day_counts where table_name = '${table}'`,
    `insert into day_counts (table_name, company_id, day, row_count) select '${table}', company_id, ${column}, count(*) from ${table} group by company_id, ${column}`,
  ];
}

/** Creates day_counts, the triggers that keep it and its counts (migration 0017's step). */
export async function createDayCounts(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  // Keyed by day first: a list's days can come in order from the key's index, with no sort.
  // Qualified with this schema: the functions run with whatever search_path the writer has.
  const schema = sql.id(rows[0].schema).compile(db).sql;
  await sql
    .raw(
      `create table day_counts (table_name varchar(64) not null, company_id integer not null, day date not null,
    row_count bigint not null, primary key (table_name, day, company_id))`,
    )
    .execute(db);
  for (const [table, column] of Object.entries(DAY_COUNTED)) {
    await sql
      .raw(
        `
      create function ${schema}.${table}_count_days() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          update ${schema}.day_counts set row_count = row_count - 1
            where table_name = '${table}' and company_id = old.company_id and day = old.${column};
        end if;
        if tg_op <> 'DELETE' then
          insert into ${schema}.day_counts (table_name, company_id, day, row_count) values ('${table}', new.company_id, new.${column}, 1)
            on conflict (table_name, company_id, day) do update set row_count = day_counts.row_count + 1;
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_count_days after insert or delete on ${table} for each row execute function ${schema}.${table}_count_days()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_move_days after update of company_id, ${column} on ${table} for each row
      when (old.company_id is distinct from new.company_id or old.${column} is distinct from new.${column}) execute function ${schema}.${table}_count_days()`,
      )
      .execute(db);
    for (const statement of dayRecountStatements(table)) await sql.raw(statement).execute(db);
  }
}
