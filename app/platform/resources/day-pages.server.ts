// PostgreSQL, deep pages of a list sorted by a day-counted date (db/day-counts.ts): the day the
// page starts on and how far into it, from the counts, then the page from the sort's index at
// that day. One statement (one snapshot), so the counts are those of the rows it reads and the
// page is exactly what OFFSET gives, also right after a write. At a million rows page 50,000
// reads ~6,000 counts and fewer than a day's entries, instead of walking 500,000.
import { sql, type Expression, type SqlBool } from 'kysely';
import { DAY_COUNTED } from '../../../db/day-counts.ts';
import type { Db } from '../context.ts';
import { dynamic, type RowQuery } from './resource-rows.server.ts';

export interface DayCountedList {
  /** The table (snake_case), read as `t` in `ids`. */
  table: string;
  /** `select t.id from <table> as t where … order by <date>, id`: the list's ids, no limit. */
  ids: RowQuery;
  /** The order's columns (snake_case): the table's day-counted date, then id. */
  columns: string[];
  dir: 'asc' | 'desc';
  /** The companies the list is limited to (its conditions say no more than that). */
  companies: number[];
}

/** Pages placed by the day counts (tests, benches). */
export const dayPageStats = { pages: 0 };

/** Whether day_counts can place a page of this list: a day-counted table sorted by its date, then id. */
export function dayCounted(table: string, columns: string[]): boolean {
  const column = DAY_COUNTED[table];
  return column !== undefined && columns.length === 2 && columns[0] === column && columns[1] === 'id';
}

/** The ids of the page at `offset`, placed by the day counts; empty past the end of the list. */
export async function dayCountedPageIds(
  db: Db,
  list: DayCountedList,
  limit: number,
  offset: number,
): Promise<number[]> {
  const dir = sql.raw(list.dir);
  const companies = list.companies.length ? sql`and company_id in (${sql.join(list.companies)})` : sql``;
  // Days in the list's order, with how many entries come before each and how many it holds.
  const start = sql`
    select day, cast(${offset} - (through - n) as bigint) as skip from (
      select day, n, sum(n) over (order by day ${dir} rows between unbounded preceding and current row) as through
      from (select day, sum(row_count) as n from day_counts where table_name = ${list.table} ${companies} group by day order by day ${dir}) as d
    ) as c where through > ${offset} order by day ${dir} limit 1`;
  const from: Expression<SqlBool> = sql<SqlBool>`${sql.ref(`t.${list.columns[0]}`)} ${sql.raw(list.dir === 'asc' ? '>=' : '<=')} (select day from start)`;
  const page = list.ids
    .where(from)
    .limit(limit)
    .offset(sql<number>`(select skip from start)`);
  const { rows } = await sql<{ id: number }>`with start as (${start}) select p.id from (${page}) as p`.execute(
    dynamic(db),
  );
  if (rows.length) dayPageStats.pages++;
  return rows.map((r) => Number(r.id));
}
