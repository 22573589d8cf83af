// The anomaly rules on planted cases: outliers against a baseline (with their severity), a
// duplicate charge, a first payment's words, the advice per type, and what must not be reported.
import { describe, expect, it } from 'vitest';
import {
  baselineOf,
  byRank,
  duplicates,
  firstPayment,
  median,
  recommendationsFor,
  robustSpread,
  severityOf,
  unusualAmount,
  explanationIn,
  type ExpenseFact,
} from './outliers.ts';
import { catalogTranslator } from '../../shell/catalog-files.server.ts';

let id = 0;
const expense = (amountCents: number, expenseDate: string, extra: Partial<ExpenseFact> = {}): ExpenseFact => ({
  id: ++id,
  categoryId: 1,
  departmentId: 7,
  amountCents,
  expenseDate,
  vendor: 'Office Supply Co',
  ...extra,
});

/** Thirty-three ordinary office amounts between $95 and $105. */
const ORDINARY = Array.from({ length: 33 }, (_, i) => 9_500 + (i % 11) * 100);

describe('outliers', () => {
  it('median, robust spread and the severity bands', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(robustSpread([10, 10, 10, 11, 9]).center).toBe(10);
    expect(robustSpread([10, 10, 10, 10]).spread).toBe(0);
    expect([severityOf(12), severityOf(-7), severityOf(5), severityOf(3.6), severityOf(2)]).toEqual([
      'critical',
      'high',
      'medium',
      'low',
      null,
    ]);
  });

  it('a baseline needs enough amounts that are not all alike', () => {
    expect(baselineOf([100, 200])).toBeNull();
    expect(baselineOf([100, 100, 100, 100, 100, 100])).toBeNull();
    expect(baselineOf(ORDINARY)).toMatchObject({ center: 10_000, count: 33 });
  });

  it('finds a planted outlier with its expected amount, deviation and severity; ordinary amounts are quiet', () => {
    const baseline = baselineOf(ORDINARY)!;
    const big = expense(95_000, '2026-11-10');
    expect(unusualAmount(big, baseline)).toMatchObject({
      expenseId: big.id,
      anomalyType: 'unusual_amount',
      severity: 'critical',
      amountCents: 95_000,
      expectedCents: 10_000,
      deviation: 850,
      date: '2026-11-10',
      categoryId: 1,
      departmentId: 7,
    });
    expect(unusualAmount(big, baseline)!.explanation).toMatch(
      /^\$950\.00 is far above this category's usual \$100\.00 \(\d+(\.\d)? robust standard deviations over its last 33 expenses\)\.$/,
    );
    for (const amount of ORDINARY) expect(unusualAmount(expense(amount, '2026-11-10'), baseline)).toBeNull();
  });

  it('severity follows the distance: a moderate outlier is medium or low, not critical', () => {
    const baseline = baselineOf(ORDINARY)!;
    expect(['medium', 'low']).toContain(
      unusualAmount(expense(Math.round(10_000 + 5 * baseline.spread), '2026-11-01'), baseline)!.severity,
    );
    expect(unusualAmount(expense(Math.round(10_000 + 8 * baseline.spread), '2026-11-02'), baseline)!.severity).toBe(
      'high',
    );
  });

  it('a duplicate charge (vendor, amount and day; vendor spelling aside) is reported once, the original is not', () => {
    const first = expense(12_345, '2026-11-05', { vendor: 'Acme Cleaning', categoryId: 2 });
    const again = expense(12_345, '2026-11-05', { vendor: ' acme cleaning ', categoryId: 2 });
    const otherDay = expense(12_345, '2026-11-06', { vendor: 'Acme Cleaning', categoryId: 2 });
    const noVendor = [expense(500, '2026-11-05', { vendor: null }), expense(500, '2026-11-05', { vendor: '  ' })];
    const found = duplicates([again, first, otherDay, ...noVendor]);
    expect(found.map((d) => d.expenseId)).toEqual([again.id]);
    expect(found[0].explanation).toBe(
      `The same charge as expense #${first.id}: $123.45 to acme cleaning on 2026-11-05.`,
    );
    expect(found[0].severity).toBe('medium');
    // The same explanation in another reader's words, from the message and values stored beside it.
    const t = catalogTranslator()('es');
    expect(
      explanationIn(found[0].explanationText, {
        t,
        cents: (cents) => `${(cents / 100).toFixed(2).replace('.', ',')} US$`,
        day: (iso) => iso.split('-').reverse().join('/'),
        decimal: String,
      }),
    ).toBe(`El mismo cargo que el gasto n.º ${first.id}: 123,45 US$ a acme cleaning el 05/11/2026.`);
    expect(duplicates([expense(600_000, '2026-11-05'), expense(600_000, '2026-11-05')])[0].severity).toBe('high');
  });

  it('a first payment reads as such; large ones are more severe', () => {
    const newcomer = expense(800_000, '2026-11-15', { vendor: 'Brand New Consulting ' });
    expect(firstPayment(newcomer)).toMatchObject({
      anomalyType: 'new_vendor',
      severity: 'low',
      expectedCents: 0,
      deviation: 100,
    });
    expect(firstPayment(newcomer).explanation).toBe(
      'The first payment to Brand New Consulting, and $8,000.00 at once (reported from $5,000.00).',
    );
    expect(firstPayment(expense(2_000_000, '2026-11-15')).severity).toBe('medium');
  });

  it('advice per type, and for an amount by its direction', () => {
    expect(recommendationsFor('duplicate', 1, 0)[0]).toBe('Check whether the vendor billed twice');
    expect(recommendationsFor('new_vendor', 1, 0)[0]).toBe('Confirm the vendor is approved');
    expect(recommendationsFor('unusual_amount', 200, 100)[0]).toBe(
      'Check the receipt and the approval for this expense',
    );
    expect(recommendationsFor('unusual_amount', 50, 100)[0]).toBe(
      'Check whether this is a partial payment or a refund booked as an expense',
    );
  });

  it('ranks by severity, then newest first', () => {
    const baseline = baselineOf(ORDINARY)!;
    const found = [expense(12_500, '2026-11-03'), expense(95_000, '2026-11-01'), expense(95_000, '2026-11-02')].map(
      (e) => unusualAmount(e, baseline)!,
    );
    expect(found.sort(byRank).map((f) => [f.severity, f.date])).toEqual([
      ['critical', '2026-11-02'],
      ['critical', '2026-11-01'],
      [found[2].severity, '2026-11-03'],
    ]);
    expect(found[2].severity).not.toBe('critical');
  });
});
