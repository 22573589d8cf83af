// The dashboard's two charts (docs/decisions.md): budget against actual
// expenses and projected against actual revenue, month by month over the last 12 months, for
// the companies the user may see, from the maintained month figures (figures.server.ts): a
// month's plan is its one plan by the rule (the most specific active budget or projection, a
// longer one spread evenly over its months). Financial-data permission; a scoped user's figures
// are their company's only.
import { addMonths } from '../ai/index.ts';
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import { budgetFigures, revenueFigures } from '../finance/index.server.ts';
import type { DashboardCharts } from './answers.ts';

export const CHART_MONTHS = 12;

const dollars = (cents: number) => Math.round(cents) / 100;

export async function dashboardCharts(ctx: ServiceContext, now = new Date()): Promise<DashboardCharts> {
  requirePermission(ctx, 'financial');
  const companyId = actorCompanyScope(ctx);
  const current = now.toISOString().slice(0, 7);
  const months = Array.from({ length: CHART_MONTHS }, (_, i) => addMonths(current, i - CHART_MONTHS + 1));
  const range = { companyId, from: months[0], to: months[months.length - 1] };
  const [budgets, revenue] = await Promise.all([
    budgetFigures(ctx.db, range, ['month']),
    revenueFigures(ctx.db, range, ['month']),
  ]);
  const budgetOf = new Map(budgets.map((r) => [r.month!, r]));
  const revenueOf = new Map(revenue.map((r) => [r.month!, r]));
  return {
    companyId,
    months,
    budgetVsActual: months.map((month) => ({
      month,
      planned: dollars(budgetOf.get(month)?.planCents ?? 0),
      actual: dollars(budgetOf.get(month)?.actualCents ?? 0),
    })),
    revenue: months.map((month) => ({
      month,
      planned: dollars(revenueOf.get(month)?.projectedCents ?? 0),
      actual: dollars(revenueOf.get(month)?.actualCents ?? 0),
    })),
  };
}
