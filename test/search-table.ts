import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL's search table against what the expense rows give, both ordered by id: the keys,
 * the lowercased description and vendor through the dictionary's value ids, and the lowercased
 * receipt number as the row's own text. Spelled here on its own (not taken from
 * `db/search-index.ts`), so the tests check the trigger and the rebuilds.
 */
export async function searchTableAgainstRows(db: Kysely<any>): Promise<[unknown[], unknown[]]> {
  const table =
    await sql`select s.id, s.company_id, s.expense_date::text as day, s.amount_cents::text as amount, s.department_id, s.category_id,
      d.value as description, v.value as vendor, s.text
    from actual_expenses_search s
    left join actual_expenses_search_terms d on d.id = s.description_term and d.column_name = 'description'
    left join actual_expenses_search_terms v on v.id = s.vendor_term and v.column_name = 'vendor'
    order by s.id`.execute(db);
  const rows =
    await sql`select id, company_id, expense_date::text as day, amount_cents::text as amount, department_id, category_id,
      lower(description) as description, lower(vendor) as vendor, lower(coalesce(receipt_number, '')) as text
    from actual_expenses t order by id`.execute(db);
  return [table.rows, rows.rows];
}
