// Expense anomalies without a network (issue 17, spec 3 §2.4): an amount far from its category's
// usual ones by a robust z-score (median and MAD, so the outliers themselves do not hide), the
// same charge twice (vendor, amount and day), and a first payment to a vendor above a threshold.
// Pure: expenses in, anomalies out.

export interface ExpenseFact {
  id: number;
  categoryId: number;
  departmentId: number;
  amountCents: number;
  /** 'YYYY-MM-DD'. */
  expenseDate: string;
  vendor: string | null;
}

export type Severity = 'critical' | 'high' | 'medium' | 'low';
export type AnomalyType = 'unusual_amount' | 'duplicate' | 'new_vendor';

export interface AnomalyFinding {
  expenseId: number;
  categoryId: number;
  departmentId: number;
  anomalyType: AnomalyType;
  severity: Severity;
  amountCents: number;
  expectedCents: number;
  /** Percent above (or below) the expected amount. */
  deviation: number;
  date: string;
  /** The robust z-score of an unusual amount. */
  score?: number;
  explanation: string;
  recommendations: string[];
}

export interface OutlierOptions {
  /** Only expenses on or after this day are reported (the history before it still counts). */
  since: string;
  /** A first payment to a vendor at or above this is reported (cents). */
  newVendorThresholdCents?: number;
  /** Expenses of a category needed before its amounts are judged. */
  minHistory?: number;
}

/** |robust z| from which an amount is unusual, and the severity bands above it. */
export const Z_BANDS: readonly [Severity, number][] = [['critical', 10], ['high', 6], ['medium', 4.5], ['low', 3.5]];
export const DEFAULT_NEW_VENDOR_THRESHOLD_CENTS = 500_000;
const MIN_HISTORY = 6;
/** MAD × 1.4826 estimates the standard deviation of normal data. */
const MAD_SCALE = 1.4826;

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median and scaled median absolute deviation; a spread of 0 (all alike) falls back to the mean absolute deviation. */
export function robustSpread(values: readonly number[]): { center: number; spread: number } {
  const center = median(values);
  const deviations = values.map((v) => Math.abs(v - center));
  let spread = MAD_SCALE * median(deviations);
  if (spread === 0) spread = 1.2533 * (deviations.reduce((a, b) => a + b, 0) / Math.max(1, deviations.length));
  return { center, spread };
}

export function severityOf(z: number): Severity | null {
  const size = Math.abs(z);
  for (const [severity, from] of Z_BANDS) if (size >= from) return severity;
  return null;
}

const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const percentOf = (amount: number, expected: number) => (expected > 0 ? Math.round(((amount - expected) / expected) * 1000) / 10 : 100);
const vendorKey = (vendor: string | null) => vendor?.trim().toLowerCase() || null;

export function findOutliers(expenses: readonly ExpenseFact[], options: OutlierOptions): AnomalyFinding[] {
  const minHistory = options.minHistory ?? MIN_HISTORY;
  const threshold = options.newVendorThresholdCents ?? DEFAULT_NEW_VENDOR_THRESHOLD_CENTS;
  const inWindow = (e: ExpenseFact) => e.expenseDate >= options.since;
  const findings: AnomalyFinding[] = [];

  // Unusual amounts, per category.
  const byCategory = new Map<number, ExpenseFact[]>();
  for (const e of expenses) byCategory.set(e.categoryId, [...(byCategory.get(e.categoryId) ?? []), e]);
  for (const rows of byCategory.values()) {
    if (rows.length < minHistory) continue;
    const { center, spread } = robustSpread(rows.map((r) => r.amountCents));
    if (spread === 0) continue;
    for (const e of rows.filter(inWindow)) {
      const z = (e.amountCents - center) / spread;
      const severity = severityOf(z);
      if (!severity) continue;
      const above = z > 0;
      findings.push({
        expenseId: e.id, categoryId: e.categoryId, departmentId: e.departmentId, anomalyType: 'unusual_amount', severity,
        amountCents: e.amountCents, expectedCents: Math.round(center), deviation: percentOf(e.amountCents, center), date: e.expenseDate, score: Math.round(z * 10) / 10,
        explanation: `${dollars(e.amountCents)} is ${above ? 'far above' : 'far below'} this category's usual ${dollars(Math.round(center))} (${Math.abs(Math.round(z * 10) / 10)} robust standard deviations over ${rows.length} expenses).`,
        recommendations: above
          ? ['Check the receipt and the approval for this expense', 'Confirm it was booked to the right category and department', 'If it is a one-off, note why in its description']
          : ['Check whether this is a partial payment or a refund booked as an expense', 'Confirm the amount against the receipt'],
      });
    }
  }

  // The same charge twice: vendor, amount and day; the first one is the original.
  const charges = new Map<string, ExpenseFact[]>();
  for (const e of expenses) {
    const vendor = vendorKey(e.vendor);
    if (!vendor) continue;
    const key = `${vendor}|${e.amountCents}|${e.expenseDate}`;
    charges.set(key, [...(charges.get(key) ?? []), e]);
  }
  for (const group of charges.values()) {
    if (group.length < 2) continue;
    const [original, ...repeats] = [...group].sort((a, b) => a.id - b.id);
    for (const e of repeats.filter(inWindow)) {
      findings.push({
        expenseId: e.id, categoryId: e.categoryId, departmentId: e.departmentId, anomalyType: 'duplicate', severity: e.amountCents >= threshold ? 'high' : 'medium',
        amountCents: e.amountCents, expectedCents: 0, deviation: 100, date: e.expenseDate,
        explanation: `The same charge as expense #${original.id}: ${dollars(e.amountCents)} to ${e.vendor!.trim()} on ${e.expenseDate}.`,
        recommendations: ['Check whether the vendor billed twice', 'Delete the duplicate entry if it was entered twice', 'Ask the vendor for a refund if it was paid twice'],
      });
    }
  }

  // First payments to a vendor above the threshold.
  const firstSeen = new Map<string, ExpenseFact>();
  for (const e of [...expenses].sort((a, b) => (a.expenseDate === b.expenseDate ? a.id - b.id : a.expenseDate < b.expenseDate ? -1 : 1))) {
    const vendor = vendorKey(e.vendor);
    if (vendor && !firstSeen.has(vendor)) firstSeen.set(vendor, e);
  }
  for (const e of firstSeen.values()) {
    if (!inWindow(e) || e.amountCents < threshold) continue;
    findings.push({
      expenseId: e.id, categoryId: e.categoryId, departmentId: e.departmentId, anomalyType: 'new_vendor', severity: e.amountCents >= 4 * threshold ? 'medium' : 'low',
      amountCents: e.amountCents, expectedCents: 0, deviation: 100, date: e.expenseDate,
      explanation: `The first payment to ${e.vendor!.trim()}, and ${dollars(e.amountCents)} at once (reported from ${dollars(threshold)}).`,
      recommendations: ['Confirm the vendor is approved', 'Check the contract or purchase order behind this payment'],
    });
  }

  const rank: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3 };
  return findings.sort((a, b) => rank[a.severity] - rank[b.severity] || (a.date < b.date ? 1 : a.date > b.date ? -1 : b.expenseId - a.expenseId));
}
