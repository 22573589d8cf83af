import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * What PostgreSQL's search table should hold as `text` for an expense row, spelled here on its
 * own (not taken from `db/search-index.ts`), so the tests check the trigger and the rebuilds.
 */
export function expectedSearchText(alias: string): RawBuilder<string> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<string>`lower(concat_ws(E'\\n', coalesce(${column('description')}, ''), coalesce(${column('vendor')}, ''), coalesce(${column('receipt_number')}, '')))`;
}

/** The search table's rows and what the expense rows give, both ordered by id. */
export async function searchTableAgainstRows(db: Kysely<any>): Promise<[unknown[], unknown[]]> {
  const table = await sql`select id, company_id, expense_date::text as day, amount_cents::text as amount, text
    from actual_expenses_search order by id`.execute(db);
  const rows = await sql`select id, company_id, expense_date::text as day, amount_cents::text as amount, ${expectedSearchText('t')} as text
    from actual_expenses t order by id`.execute(db);
  return [table.rows, rows.rows];
}
