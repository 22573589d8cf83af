// Budget analysis on planted figures: overruns are ranked, and the recommendations name the
// largest ones. (Which plan counts in a month is the aggregates' rule: db/aggregates.test.ts.)
import { describe, expect, it } from 'vitest';
import { analyzeBudget } from './budget-variance.ts';

const names = new Map([
  [1, 'Travel'],
  [2, 'Software'],
  [3, 'Office'],
  [4, 'Training'],
]);

describe('budget analysis', () => {
  it('totals, variance (actual − budget), variance %, ranked overruns and recommendations', () => {
    const result = analyzeBudget(
      2026,
      [
        { categoryId: 1, budgetCents: 1_000_000, actualCents: 1_300_000 },
        { categoryId: 2, budgetCents: 500_000, actualCents: 510_000 },
        { categoryId: 3, budgetCents: 400_000, actualCents: 100_000 },
        { categoryId: 4, budgetCents: 200_000, actualCents: 0 },
        { categoryId: 5, budgetCents: 0, actualCents: 50_000 },
        // A category's figures may come in parts (per department): they add up.
        { categoryId: 4, budgetCents: 1_000, actualCents: 0 },
        { categoryId: 6, budgetCents: 0, actualCents: 0 },
      ],
      names,
    );
    expect(result.totalBudgetCents).toBe(1_000_000 + 500_000 + 400_000 + 201_000);
    expect(result.totalActualCents).toBe(1_960_000);
    expect(result.varianceCents).toBe(1_960_000 - result.totalBudgetCents);
    expect(result.categories.map((c) => c.categoryName)).toEqual([
      'Travel',
      'Category 5',
      'Software',
      'Training',
      'Office',
    ]);
    expect(result.categories[0]).toMatchObject({
      budgetCents: 1_000_000,
      actualCents: 1_300_000,
      varianceCents: 300_000,
      variancePercentage: 30,
    });
    expect(result.categories.find((c) => c.categoryId === 5)!.variancePercentage).toBeNull();
    expect(result.recommendations[0]).toBe(
      'Travel is $3,000 (30%) over budget: review its largest expenses and its budget for the rest of the year.',
    );
    expect(result.recommendations[1]).toBe('Category 5: $500 spent without a budget; plan one for it.');
    // Software is 2 % over: on target, not named as an overrun.
    expect(result.recommendations.some((r) => r.startsWith('Software'))).toBe(false);
    expect(result.recommendations.at(-1)).toBe(
      'Training, Office used less than half of the budget: consider moving the rest to the overrunning categories.',
    );
  });

  it('on target everywhere, and an empty year', () => {
    const fine = analyzeBudget(2026, [{ categoryId: 1, budgetCents: 100_000, actualCents: 103_000 }], names);
    expect(fine.variancePercentage).toBe(3);
    expect(fine.recommendations).toEqual(['Spending is within 5% of budget in every category: keep the current plan.']);
    const empty = analyzeBudget(2024, [], names);
    expect(empty).toMatchObject({
      totalBudgetCents: 0,
      totalActualCents: 0,
      varianceCents: 0,
      variancePercentage: null,
      categories: [],
    });
    expect(empty.recommendations).toEqual(['No budgets or expenses recorded for 2024.']);
  });
});
