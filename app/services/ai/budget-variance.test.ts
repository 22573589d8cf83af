// Budget analysis on planted books: budgets spanning years are prorated by days, overruns are
// ranked, and the recommendations name the largest ones.
import { describe, expect, it } from 'vitest';
import { analyzeBudget, shareInYear } from './budget-variance.ts';

const names = new Map([[1, 'Travel'], [2, 'Software'], [3, 'Office'], [4, 'Training']]);

describe('budget analysis', () => {
  it('a budget counts in a year by the share of its days inside it', () => {
    expect(shareInYear({ startDate: '2026-01-01', endDate: '2026-12-31' }, 2026)).toBe(1);
    expect(shareInYear({ startDate: '2026-01-01', endDate: '2026-12-31' }, 2025)).toBe(0);
    // 2025-07-01 … 2026-06-30: 184 of 365 days in 2025.
    expect(shareInYear({ startDate: '2025-07-01', endDate: '2026-06-30' }, 2025)).toBeCloseTo(184 / 365, 10);
    expect(shareInYear({ startDate: '2026-03-01', endDate: '2026-02-01' }, 2026)).toBe(0);
  });

  it('totals, variance (actual − budget), variance %, ranked overruns and recommendations', () => {
    const result = analyzeBudget(
      2026,
      [
        { categoryId: 1, amountCents: 1_000_000, startDate: '2026-01-01', endDate: '2026-12-31' },
        { categoryId: 2, amountCents: 500_000, startDate: '2026-01-01', endDate: '2026-06-30' },
        { categoryId: 3, amountCents: 400_000, startDate: '2026-01-01', endDate: '2026-12-31' },
        // Half of it falls in 2027: $2,000 of $4,000 counts (2026-07-02 … 2027-06-30 = 364 days, 183 in 2026).
        { categoryId: 4, amountCents: 400_000, startDate: '2026-07-02', endDate: '2027-06-30' },
      ],
      [
        { categoryId: 1, amountCents: 1_300_000 },
        { categoryId: 2, amountCents: 510_000 },
        { categoryId: 3, amountCents: 100_000 },
        { categoryId: 5, amountCents: 50_000 },
      ],
      names,
    );
    const training = Math.round(400_000 * (183 / 364));
    expect(result.totalBudgetCents).toBe(1_000_000 + 500_000 + 400_000 + training);
    expect(result.totalActualCents).toBe(1_960_000);
    expect(result.varianceCents).toBe(1_960_000 - result.totalBudgetCents);
    expect(result.categories.map((c) => c.categoryName)).toEqual(['Travel', 'Category 5', 'Software', 'Training', 'Office']);
    expect(result.categories[0]).toMatchObject({ budgetCents: 1_000_000, actualCents: 1_300_000, varianceCents: 300_000, variancePercentage: 30 });
    expect(result.categories.find((c) => c.categoryId === 5)!.variancePercentage).toBeNull();
    expect(result.recommendations[0]).toBe('Travel is $3,000 (30%) over budget: review its largest expenses and its budget for the rest of the year.');
    expect(result.recommendations[1]).toBe('Category 5: $500 spent without a budget; plan one for it.');
    // Software is 2 % over: on target, not named as an overrun.
    expect(result.recommendations.some((r) => r.startsWith('Software'))).toBe(false);
    expect(result.recommendations.at(-1)).toBe('Training, Office used less than half of the budget: consider moving the rest to the overrunning categories.');
  });

  it('on target everywhere, and an empty year', () => {
    const fine = analyzeBudget(2026, [{ categoryId: 1, amountCents: 100_000, startDate: '2026-01-01', endDate: '2026-12-31' }], [{ categoryId: 1, amountCents: 103_000 }], names);
    expect(fine.variancePercentage).toBe(3);
    expect(fine.recommendations).toEqual(['Spending is within 5% of budget in every category: keep the current plan.']);
    const empty = analyzeBudget(2024, [], [], names);
    expect(empty).toMatchObject({ totalBudgetCents: 0, totalActualCents: 0, varianceCents: 0, variancePercentage: null, categories: [] });
    expect(empty.recommendations).toEqual(['No budgets or expenses recorded for 2024.']);
  });
});
