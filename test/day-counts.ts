import { sql, type Kysely } from 'kysely';

/** PostgreSQL's day counts of the expenses (no empty day), and the same counted from the rows, both in one order. */
export async function dayCountsAgainstRows(db: Kysely<any>): Promise<[unknown[], unknown[]]> {
  const kept = await sql`select company_id, day::text as day, row_count::int as n from day_counts
    where table_name = 'actual_expenses' and row_count <> 0 order by 1, 2`.execute(db);
  const counted =
    await sql`select company_id, expense_date::text as day, count(*)::int as n from actual_expenses group by 1, 2 order by 1, 2`.execute(
      db,
    );
  return [kept.rows, counted.rows];
}
