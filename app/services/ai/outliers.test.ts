// The anomaly engine on planted cases: outliers among ordinary amounts (with their severity), a
// duplicate charge, a first-time vendor, and what must not be reported.
import { describe, expect, it } from 'vitest';
import { findOutliers, median, robustSpread, severityOf, type ExpenseFact } from './outliers.ts';

let id = 0;
const expense = (amountCents: number, expenseDate: string, extra: Partial<ExpenseFact> = {}): ExpenseFact =>
  ({ id: ++id, categoryId: 1, departmentId: 7, amountCents, expenseDate, vendor: 'Office Supply Co', ...extra });

/** Thirty ordinary office expenses between $95 and $105 through 2026, spread over the year. */
function ordinary(): ExpenseFact[] {
  return Array.from({ length: 30 }, (_, i) => expense(9_500 + (i % 11) * 100, `2026-${String(1 + (i % 9)).padStart(2, '0')}-${String(1 + (i % 27)).padStart(2, '0')}`, { vendor: `Vendor ${i % 3}` }));
}

describe('outliers', () => {
  it('median, robust spread and the severity bands', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(robustSpread([10, 10, 10, 11, 9]).center).toBe(10);
    expect(robustSpread([10, 10, 10, 10]).spread).toBe(0);
    expect([severityOf(12), severityOf(-7), severityOf(5), severityOf(3.6), severityOf(2)]).toEqual(['critical', 'high', 'medium', 'low', null]);
  });

  it('finds a planted outlier with its expected amount, deviation and severity; ordinary amounts are quiet', () => {
    const rows = ordinary();
    const big = expense(95_000, '2026-11-10', { vendor: 'Vendor 1' });
    const found = findOutliers([...rows, big], { since: '2026-10-24' });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ expenseId: big.id, anomalyType: 'unusual_amount', severity: 'critical', amountCents: 95_000, expectedCents: 10_000, deviation: 850, date: '2026-11-10', categoryId: 1, departmentId: 7 });
    expect(found[0].explanation).toContain('$950.00 is far above');
    expect(found[0].recommendations.length).toBeGreaterThan(0);
    // The history before the window still counts; its own outliers are not reported.
    const old = expense(95_000, '2026-02-01', { vendor: 'Vendor 2' });
    expect(findOutliers([...rows, old], { since: '2026-10-24' })).toEqual([]);
  });

  it('severity follows the distance: a moderate outlier is medium or low, not critical', () => {
    const rows = ordinary();
    const spread = robustSpread(rows.map((r) => r.amountCents)).spread;
    const moderate = expense(Math.round(10_000 + 5 * spread), '2026-11-01', { vendor: 'Vendor 0' });
    const [finding] = findOutliers([...rows, moderate], { since: '2026-11-01' });
    expect(['medium', 'low']).toContain(finding.severity);
    const far = expense(Math.round(10_000 + 8 * spread), '2026-11-02', { vendor: 'Vendor 0' });
    expect(findOutliers([...rows, far], { since: '2026-11-02' })[0].severity).toBe('high');
  });

  it('a duplicate charge (vendor, amount and day; vendor spelling aside) is reported once, the original is not', () => {
    const rows = ordinary();
    const first = expense(12_345, '2026-11-05', { vendor: 'Acme Cleaning', categoryId: 2 });
    const again = expense(12_345, '2026-11-05', { vendor: ' acme cleaning ', categoryId: 2 });
    const otherDay = expense(12_345, '2026-11-06', { vendor: 'Acme Cleaning', categoryId: 2 });
    const found = findOutliers([...rows, first, again, otherDay], { since: '2026-11-01' });
    const duplicates = found.filter((f) => f.anomalyType === 'duplicate');
    expect(duplicates.map((d) => d.expenseId)).toEqual([again.id]);
    expect(duplicates[0].explanation).toContain(`expense #${first.id}`);
    expect(duplicates[0].severity).toBe('medium');
  });

  it('a first payment to a vendor above the threshold is reported; a known vendor or a small first payment is not', () => {
    const rows = ordinary();
    const newcomer = expense(800_000, '2026-11-15', { vendor: 'Brand New Consulting', categoryId: 3 });
    const small = expense(4_000, '2026-11-15', { vendor: 'Tiny Newcomer', categoryId: 3 });
    const known = expense(900_000, '2026-11-16', { vendor: 'Vendor 1', categoryId: 3 });
    const found = findOutliers([...rows, newcomer, small, known], { since: '2026-11-01', newVendorThresholdCents: 500_000 });
    expect(found.filter((f) => f.anomalyType === 'new_vendor').map((f) => f.expenseId)).toEqual([newcomer.id]);
    expect(found.find((f) => f.anomalyType === 'new_vendor')!.severity).toBe('low');
  });

  it('a category with too little history is not judged; a window with nothing unusual finds nothing', () => {
    const few = [expense(100, '2026-11-01', { categoryId: 9 }), expense(100_000, '2026-11-02', { categoryId: 9 })];
    expect(findOutliers(few, { since: '2026-11-01' }).filter((f) => f.anomalyType === 'unusual_amount')).toEqual([]);
    expect(findOutliers(ordinary(), { since: '2026-10-01' })).toEqual([]);
  });

  it('orders by severity, then newest first', () => {
    const rows = ordinary();
    const found = findOutliers([...rows, expense(60_000, '2026-11-01', { vendor: 'Vendor 0' }), expense(95_000, '2026-11-02', { vendor: 'Vendor 0' }), expense(95_000, '2026-11-03', { vendor: 'Vendor 1' })], { since: '2026-11-01' });
    expect(found.map((f) => [f.severity, f.date])).toEqual([['critical', '2026-11-03'], ['critical', '2026-11-02'], ['critical', '2026-11-01']].slice(0, found.length));
  });
});
