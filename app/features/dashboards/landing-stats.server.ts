// The landing page's stats row from the data itself: companies, the
// shared departments, the finance and metric records (the trigger-kept row counts), and the
// uptime measured by the health snapshots (left out until there is an hour of them).
import { listCompanyCards } from '../finance/index.server.ts';
import type { Db } from '../../platform/context.ts';
import { uptimePercent } from '../system/index.server.ts';

export interface LandingStats {
  companies: number;
  departments: number;
  dataPoints: number;
  /** Percent over the last 7 days; null: not measured yet. */
  uptime: number | null;
}

export async function landingStats(db: Db, now = new Date()): Promise<LandingStats> {
  const count = (table: 'companies' | 'departments') =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
  const [companies, departments, rows, uptime] = await Promise.all([
    count('companies'),
    count('departments'),
    db
      .selectFrom('rowCounts')
      .select((eb) => eb.fn.sum<number>('rowCount').as('n'))
      .executeTakeFirstOrThrow(),
    uptimePercent(db, now),
  ]);
  return {
    companies: Number(companies.n),
    departments: Number(departments.n),
    dataPoints: Number(rows.n ?? 0),
    uptime,
  };
}

/** Everything the landing page shows: the company cards and the stats row. */
export async function landingPage(
  db: Db,
): Promise<{ companies: Awaited<ReturnType<typeof listCompanyCards>>; stats: LandingStats }> {
  const [companies, stats] = await Promise.all([listCompanyCards(db), landingStats(db)]);
  return { companies, stats };
}
