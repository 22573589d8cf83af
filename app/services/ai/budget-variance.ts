// Budget analysis of one company and year without a network (issue 17, spec 3 §2.4): total
// budget, total actual, variance and variance %, each category's overrun, and recommendations
// from the largest overruns. A budget's amount covers its start–end range: the part of the range
// inside the year counts, in proportion to its days. Variance = actual − budget (above 0: over
// budget). Pure: rows in, analysis out.

export interface BudgetFact {
  categoryId: number;
  amountCents: number;
  /** 'YYYY-MM-DD', inclusive. */
  startDate: string;
  endDate: string;
}

export interface ActualFact {
  categoryId: number;
  amountCents: number;
}

export interface CategoryVariance {
  categoryId: number;
  categoryName: string;
  budgetCents: number;
  actualCents: number;
  varianceCents: number;
  /** Percent of the budget; null without a budget. */
  variancePercentage: number | null;
}

export interface BudgetVariance {
  year: number;
  totalBudgetCents: number;
  totalActualCents: number;
  varianceCents: number;
  variancePercentage: number | null;
  categories: CategoryVariance[];
  recommendations: string[];
}

/** A category within ±5 % of its budget is on target. */
export const ON_TARGET_PERCENT = 5;

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

/** The share of a planned range (inclusive days) that falls between two days (inclusive). */
export function shareBetween(plan: Pick<BudgetFact, 'startDate' | 'endDate'>, first: string, last: string): number {
  const start = dayNumber(plan.startDate);
  const end = dayNumber(plan.endDate);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return 0;
  const from = Math.max(start, dayNumber(first));
  const to = Math.min(end, dayNumber(last));
  return to < from ? 0 : (to - from + 1) / (end - start + 1);
}

/** The share of a budget's range (inclusive days) that falls inside the year. */
export function shareInYear(budget: Pick<BudgetFact, 'startDate' | 'endDate'>, year: number): number {
  return shareBetween(budget, `${year}-01-01`, `${year}-12-31`);
}

const pct = (variance: number, budget: number) => (budget > 0 ? Math.round((variance / budget) * 1000) / 10 : null);
const dollars = (cents: number) => `$${Math.round(cents / 100).toLocaleString('en-US')}`;

export function analyzeBudget(
  year: number,
  budgets: readonly BudgetFact[],
  actuals: readonly ActualFact[],
  categoryNames: ReadonlyMap<number, string>,
): BudgetVariance {
  const byCategory = new Map<number, { budget: number; actual: number }>();
  const entry = (id: number) => {
    let row = byCategory.get(id);
    if (!row) byCategory.set(id, (row = { budget: 0, actual: 0 }));
    return row;
  };
  for (const b of budgets) {
    const share = shareInYear(b, year);
    if (share > 0) entry(b.categoryId).budget += b.amountCents * share;
  }
  for (const a of actuals) entry(a.categoryId).actual += a.amountCents;

  const categories: CategoryVariance[] = [...byCategory.entries()]
    .map(([categoryId, { budget, actual }]) => {
      const budgetCents = Math.round(budget);
      const varianceCents = actual - budgetCents;
      return { categoryId, categoryName: categoryNames.get(categoryId) ?? `Category ${categoryId}`, budgetCents, actualCents: actual, varianceCents, variancePercentage: pct(varianceCents, budgetCents) };
    })
    .sort((a, b) => b.varianceCents - a.varianceCents);
  const totalBudgetCents = categories.reduce((s, c) => s + c.budgetCents, 0);
  const totalActualCents = categories.reduce((s, c) => s + c.actualCents, 0);
  const varianceCents = totalActualCents - totalBudgetCents;

  const recommendations: string[] = [];
  const overruns = categories.filter((c) => c.varianceCents > 0 && (c.variancePercentage === null || c.variancePercentage > ON_TARGET_PERCENT));
  for (const c of overruns.slice(0, 3)) {
    recommendations.push(
      c.budgetCents === 0
        ? `${c.categoryName}: ${dollars(c.actualCents)} spent without a budget; plan one for it.`
        : `${c.categoryName} is ${dollars(c.varianceCents)} (${c.variancePercentage}%) over budget: review its largest expenses and its budget for the rest of the year.`,
    );
  }
  const unused = categories.filter((c) => c.budgetCents > 0 && c.variancePercentage !== null && c.variancePercentage < -50);
  if (unused.length) recommendations.push(`${unused.map((c) => c.categoryName).join(', ')} used less than half of the budget: consider moving the rest to the overrunning categories.`);
  if (recommendations.length === 0) {
    recommendations.push(totalBudgetCents === 0 && totalActualCents === 0 ? `No budgets or expenses recorded for ${year}.` : `Spending is within ${ON_TARGET_PERCENT}% of budget in every category: keep the current plan.`);
  }
  return { year, totalBudgetCents, totalActualCents, varianceCents, variancePercentage: pct(varianceCents, totalBudgetCents), categories, recommendations };
}
