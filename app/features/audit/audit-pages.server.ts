// Any page of the audit trail, newest first, without walking the entries before it
// (docs/audit-trail.md): when the list is the whole trail or one company's (nothing else filters
// it), the entries per day and company that the triggers keep (db/audit-days.ts) say which day
// the page starts on and how many of that day's entries come before it; the page is read from
// the timestamp index at the end of that day, skipping fewer than one day's entries. Counts and
// page are one statement (one snapshot), so the page is exactly what OFFSET gives, also right
// after a write.
import { sql } from 'kysely';
import { dialectOf } from '../../../db/dialect.ts';
import type { Db } from '../../platform/context.ts';
import { databaseQueries } from '../../platform/query-types.server.ts';

export const AUDIT_PAGES = {
  /** Pages from this offset on are placed by the day counts; nearer the newest entry, walking costs less than summing the days. */
  placedFrom: 1_000,
};

/** Pages placed by the day counts (tests, benches). */
export const auditPageStats = { placed: 0 };

/**
 * The ids of the trail's entries (all, or one company's: `companyId`) at `offset`, newest first
 * (timestamp, then id): `ids`, a query to read with `from`, which holds the day it starts on
 * (`start`), in the statement that reads the entries; none past the end of the trail.
 */
export function auditPage(db: Db, companyId: number | null, limit: number, offset: number) {
  const postgres = dialectOf(db) === 'postgres';
  const company = companyId === null ? sql`` : sql`where company_id = ${companyId}`;
  // Days newest first, with how many entries come before each day's end (`through`): the page
  // starts on the first day through which more than `offset` entries come, `skip` entries in.
  const start = sql<{ day: string; skip: number }>`(
    select day, ${offset} - (through - n) as skip from (
      select day, n, sum(n) over (order by day desc rows between unbounded preceding and current row) as through
      from (select day, sum(entries) as n from audit_days ${company} group by day) as d
    ) as c where through > ${offset} order by day desc limit 1)`;
  // The first instant after that day: entries at or after it are those of the later days.
  const end = postgres
    ? sql<string>`(select cast(cast(s.day as date) + 1 as timestamp) at time zone 'UTC' from start as s)`
    : sql<string>`(select date(s.day, '+1 day') from start as s)`;
  const ids = db
    .selectFrom('auditLogs as p')
    .select('p.id')
    .$if(companyId !== null, (q) => q.where('p.companyId', '=', companyId!))
    .where('p.timestamp', '<', end)
    .orderBy('p.timestamp', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    // No day: the offset is past the end (nothing is before the null end either).
    .offset(sql<number>`coalesce((select cast(s.skip as integer) from start as s), 0)`);
  auditPageStats.placed++;
  return { from: databaseQueries(db.with('start', () => start)), ids };
}
