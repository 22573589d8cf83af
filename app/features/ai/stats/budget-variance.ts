// Budget analysis of one company and year without a network: total
// budget, total actual, variance and variance %, each category's overrun, and recommendations
// from the largest overruns. A category's budget is the sum of its months' plans (one plan per
// month by the rule, figures.server.ts). Variance = actual − budget (above 0: over budget).
// Pure: figures in, analysis out; the recommendations in the reader's words (English by default).
import { ENGLISH, type Wording } from '../wording.server.ts';

/** One category's (or department's) planned and actual cents over the period analysed. */
export interface CategoryFigure {
  categoryId: number;
  budgetCents: number;
  actualCents: number;
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

const pct = (variance: number, budget: number) => (budget > 0 ? Math.round((variance / budget) * 1000) / 10 : null);

export function analyzeBudget(
  year: number,
  figures: readonly CategoryFigure[],
  categoryNames: ReadonlyMap<number, string>,
  wording: Wording = ENGLISH,
): BudgetVariance {
  const { t } = wording;
  const dollars = (cents: number) => wording.money(Math.round(cents / 100), 0);
  const byCategory = new Map<number, { budget: number; actual: number }>();
  for (const f of figures) {
    if (f.budgetCents === 0 && f.actualCents === 0) continue;
    const row = byCategory.get(f.categoryId) ?? { budget: 0, actual: 0 };
    row.budget += f.budgetCents;
    row.actual += f.actualCents;
    byCategory.set(f.categoryId, row);
  }

  const categories: CategoryVariance[] = [...byCategory.entries()]
    .map(([categoryId, { budget, actual }]) => {
      const budgetCents = Math.round(budget);
      const varianceCents = actual - budgetCents;
      return {
        categoryId,
        categoryName: categoryNames.get(categoryId) ?? `Category ${categoryId}`,
        budgetCents,
        actualCents: actual,
        varianceCents,
        variancePercentage: pct(varianceCents, budgetCents),
      };
    })
    .sort((a, b) => b.varianceCents - a.varianceCents);
  const totalBudgetCents = categories.reduce((s, c) => s + c.budgetCents, 0);
  const totalActualCents = categories.reduce((s, c) => s + c.actualCents, 0);
  const varianceCents = totalActualCents - totalBudgetCents;

  const recommendations: string[] = [];
  const overruns = categories.filter(
    (c) => c.varianceCents > 0 && (c.variancePercentage === null || c.variancePercentage > ON_TARGET_PERCENT),
  );
  for (const c of overruns.slice(0, 3)) {
    recommendations.push(
      c.budgetCents === 0
        ? t('{category}: {amount} spent without a budget; plan one for it.', {
            category: c.categoryName,
            amount: dollars(c.actualCents),
          })
        : t(
            '{category} is {amount} ({percent}) over budget: review its largest expenses and its budget for the rest of the year.',
            {
              category: c.categoryName,
              amount: dollars(c.varianceCents),
              percent: wording.percent(c.variancePercentage!),
            },
          ),
    );
  }
  const unused = categories.filter(
    (c) => c.budgetCents > 0 && c.variancePercentage !== null && c.variancePercentage < -50,
  );
  if (unused.length)
    recommendations.push(
      t('{categories} used less than half of the budget: consider moving the rest to the overrunning categories.', {
        categories: unused.map((c) => c.categoryName).join(', '),
      }),
    );
  if (recommendations.length === 0) {
    recommendations.push(
      totalBudgetCents === 0 && totalActualCents === 0
        ? t('No budgets or expenses recorded for {year}.', { year: String(year) })
        : t('Spending is within {percent} of budget in every category: keep the current plan.', {
            percent: wording.percent(ON_TARGET_PERCENT),
          }),
    );
  }
  return {
    year,
    totalBudgetCents,
    totalActualCents,
    varianceCents,
    variancePercentage: pct(varianceCents, totalBudgetCents),
    categories,
    recommendations,
  };
}
