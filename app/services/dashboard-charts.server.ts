// The dashboard's two charts (beyond the specification, DESIGN §10): budget against actual
// expenses and projected against actual revenue, month by month over the last 12 months, for
// the companies the user may see. A budget or projection covering several months counts in
// each month by the share of its days that fall there. Financial-data permission; a scoped
// user's figures are their company's only.
import { companyScope, can } from '../lib/permissions.ts';
import { shareBetween } from './ai/budget-variance.ts';
import { addMonths } from './ai/forecast.ts';
import { expenseSums, revenueSums } from './ai-books.server.ts';
import type { Db, ServiceContext } from './context.ts';
import { forbidden } from './errors.ts';

export const CHART_MONTHS = 12;

export interface MonthPair {
  /** YYYY-MM. */
  month: string;
  /** US dollars. */
  planned: number;
  actual: number;
}

export interface DashboardCharts {
  companyId: number | null;
  months: string[];
  budgetVsActual: MonthPair[];
  revenue: MonthPair[];
}

const lastDayOf = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
};

/** The planned amounts (cents) of the rows overlapping [first, last], spread over the months. */
async function plannedByMonth(db: Db, table: 'budgets' | 'revenueProjections', companyId: number | null, months: string[]): Promise<Map<string, number>> {
  const first = `${months[0]}-01`;
  const last = lastDayOf(months[months.length - 1]);
  const rows = await db
    .selectFrom(table)
    .select(['startDate', 'endDate', 'amountCents'])
    .where('startDate', '<=', last)
    .where('endDate', '>=', first)
    .$if(companyId !== null, (q) => q.where('companyId', '=', companyId!))
    .execute();
  const out = new Map(months.map((m) => [m, 0]));
  for (const row of rows) {
    for (const month of months) {
      const share = shareBetween(row, `${month}-01`, lastDayOf(month));
      if (share > 0) out.set(month, out.get(month)! + Number(row.amountCents) * share);
    }
  }
  return out;
}

async function actualByMonth(db: Db, ledger: 'expenses' | 'revenue', companyId: number | null, months: string[]): Promise<Map<string, number>> {
  const filter = { from: `${months[0]}-01`, to: lastDayOf(months[months.length - 1]), groupBy: 'month' as const };
  const rows = ledger === 'expenses' ? await expenseSums(db, companyId, filter) : await revenueSums(db, companyId, filter);
  const out = new Map(months.map((m) => [m, 0]));
  for (const row of rows) if (row.label && out.has(row.label)) out.set(row.label, Number(row.cents ?? 0));
  return out;
}

const dollars = (cents: number) => Math.round(cents) / 100;

export async function dashboardCharts(ctx: ServiceContext, now = new Date()): Promise<DashboardCharts> {
  if (ctx.actor.kind === 'user' && !can(ctx.actor.user, 'financial')) throw forbidden();
  const companyId = ctx.actor.kind === 'user' ? companyScope(ctx.actor.user) : null;
  const current = now.toISOString().slice(0, 7);
  const months = Array.from({ length: CHART_MONTHS }, (_, i) => addMonths(current, i - CHART_MONTHS + 1));
  const [budgets, expenses, projections, revenue] = await Promise.all([
    plannedByMonth(ctx.db, 'budgets', companyId, months),
    actualByMonth(ctx.db, 'expenses', companyId, months),
    plannedByMonth(ctx.db, 'revenueProjections', companyId, months),
    actualByMonth(ctx.db, 'revenue', companyId, months),
  ]);
  return {
    companyId,
    months,
    budgetVsActual: months.map((month) => ({ month, planned: dollars(budgets.get(month)!), actual: dollars(expenses.get(month)!) })),
    revenue: months.map((month) => ({ month, planned: dollars(projections.get(month)!), actual: dollars(revenue.get(month)!) })),
  };
}
