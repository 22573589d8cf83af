// Expense anomalies without a network: an amount far from its category's usual ones by a robust
// z-score (median and MAD, so the outliers themselves do not hide), the same charge twice
// (vendor, amount and day), and a first payment to a vendor above a threshold. Pure: the rules
// and their words; which rows they look at is app/features/ai/expense-anomalies.server.ts (and
// docs/anomalies.md).
import { msg } from '../../../platform/i18n/messages.ts';
import { english } from '../../../platform/i18n/refusal-words.ts';

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
  /** In English, as the /api answers it. */
  explanation: string;
  /** The same as a message and its values, for a reader of another language. */
  explanationText: ExplanationText;
}

/**
 * An explanation as a catalog message and its values; `kinds` names the values each reader
 * formats: amounts in cents, days ('YYYY-MM-DD') and decimals.
 */
export interface ExplanationText {
  message: string;
  values: Record<string, string | number>;
  kinds?: Record<string, 'cents' | 'day' | 'decimal'>;
}

/** How a reader writes the values of an explanation (English: the /api's dollars, ISO days). */
export interface ExplanationFormats {
  t: (message: string, values: Record<string, string>) => string;
  cents(cents: number): string;
  day(iso: string): string;
  decimal(value: number): string;
}

const ENGLISH_VALUES: ExplanationFormats = {
  t: english,
  cents: (cents) => dollars(cents),
  day: (iso) => iso,
  decimal: (value) => String(value),
};

/** An explanation in a reader's words and formats (English by default). */
export function explanationIn(text: ExplanationText, formats: ExplanationFormats = ENGLISH_VALUES): string {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(text.values)) {
    const kind = text.kinds?.[key];
    values[key] =
      kind === 'cents'
        ? formats.cents(Number(value))
        : kind === 'day'
          ? formats.day(String(value))
          : kind === 'decimal'
            ? formats.decimal(Number(value))
            : String(value);
  }
  return formats.t(text.message, values);
}

/** A finding's explanation: its text, and its English. */
function explained(text: ExplanationText): Pick<AnomalyFinding, 'explanation' | 'explanationText'> {
  return { explanation: explanationIn(text), explanationText: text };
}

/** A category's usual amount: the median and robust spread of its most recent expenses. */
export interface Baseline {
  center: number;
  spread: number;
  /** How many expenses it was taken from. */
  count: number;
}

/** |robust z| from which an amount is unusual, and the severity bands above it. */
export const Z_BANDS: readonly [Severity, number][] = [
  ['critical', 10],
  ['high', 6],
  ['medium', 4.5],
  ['low', 3.5],
];
export const DEFAULT_NEW_VENDOR_THRESHOLD_CENTS = 500_000;
/** Expenses of a category needed before its amounts are judged. */
export const MIN_HISTORY = 6;
/** The ranking order: most severe first. */
export const SEVERITY_RANK: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3 };
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

/** The baseline of these amounts, or null when there are too few to judge by or they are all alike. */
export function baselineOf(amounts: readonly number[], minHistory = MIN_HISTORY): Baseline | null {
  if (amounts.length < minHistory) return null;
  const { center, spread } = robustSpread(amounts);
  return spread > 0 ? { center, spread, count: amounts.length } : null;
}

export function severityOf(z: number): Severity | null {
  const size = Math.abs(z);
  for (const [severity, from] of Z_BANDS) if (size >= from) return severity;
  return null;
}

const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const percentOf = (amount: number, expected: number) =>
  expected > 0 ? Math.round(((amount - expected) / expected) * 1000) / 10 : 100;
/** A vendor's name as anomalies compare it: trimmed, case ignored (null: none recorded). */
export const vendorKey = (vendor: string | null) => vendor?.trim().toLowerCase() || null;

/** An unusual amount against its category's baseline, or null when it is not unusual. */
export function unusualAmount(e: ExpenseFact, baseline: Baseline): AnomalyFinding | null {
  const z = (e.amountCents - baseline.center) / baseline.spread;
  const severity = severityOf(z);
  if (!severity) return null;
  const expectedCents = Math.round(baseline.center);
  const score = Math.abs(Math.round(z * 10) / 10);
  return {
    expenseId: e.id,
    categoryId: e.categoryId,
    departmentId: e.departmentId,
    anomalyType: 'unusual_amount',
    severity,
    amountCents: e.amountCents,
    expectedCents,
    deviation: percentOf(e.amountCents, baseline.center),
    date: e.expenseDate,
    ...explained({
      message:
        z > 0
          ? msg(
              "{amount} is far above this category's usual {expected} ({score} robust standard deviations over its last {count} expenses).",
            )
          : msg(
              "{amount} is far below this category's usual {expected} ({score} robust standard deviations over its last {count} expenses).",
            ),
      values: { amount: e.amountCents, expected: expectedCents, score, count: baseline.count },
      kinds: { amount: 'cents', expected: 'cents', score: 'decimal' },
    }),
  };
}

/**
 * The same charge twice: among expenses of one company, those with the vendor, amount and day
 * of an earlier one (lower id) are duplicates of it; the first is the original.
 */
export function duplicates(
  expenses: readonly ExpenseFact[],
  thresholdCents = DEFAULT_NEW_VENDOR_THRESHOLD_CENTS,
): AnomalyFinding[] {
  const charges = new Map<string, ExpenseFact[]>();
  for (const e of expenses) {
    const vendor = vendorKey(e.vendor);
    if (!vendor) continue;
    const key = `${vendor}|${e.amountCents}|${e.expenseDate}`;
    const group = charges.get(key);
    if (group) group.push(e);
    else charges.set(key, [e]);
  }
  const found: AnomalyFinding[] = [];
  for (const group of charges.values()) {
    if (group.length < 2) continue;
    const [original, ...repeats] = [...group].sort((a, b) => a.id - b.id);
    for (const e of repeats) {
      found.push({
        expenseId: e.id,
        categoryId: e.categoryId,
        departmentId: e.departmentId,
        anomalyType: 'duplicate',
        severity: e.amountCents >= thresholdCents ? 'high' : 'medium',
        amountCents: e.amountCents,
        expectedCents: 0,
        deviation: 100,
        date: e.expenseDate,
        ...explained({
          message: msg('The same charge as expense #{original}: {amount} to {vendor} on {date}.'),
          values: { original: original.id, amount: e.amountCents, vendor: e.vendor!.trim(), date: e.expenseDate },
          kinds: { amount: 'cents', date: 'day' },
        }),
      });
    }
  }
  return found;
}

/** A first payment to its vendor (the caller checked the company paid them nothing before). */
export function firstPayment(e: ExpenseFact, thresholdCents = DEFAULT_NEW_VENDOR_THRESHOLD_CENTS): AnomalyFinding {
  return {
    expenseId: e.id,
    categoryId: e.categoryId,
    departmentId: e.departmentId,
    anomalyType: 'new_vendor',
    severity: e.amountCents >= 4 * thresholdCents ? 'medium' : 'low',
    amountCents: e.amountCents,
    expectedCents: 0,
    deviation: 100,
    date: e.expenseDate,
    ...explained({
      message: msg('The first payment to {vendor}, and {amount} at once (reported from {threshold}).'),
      values: { vendor: e.vendor!.trim(), amount: e.amountCents, threshold: thresholdCents },
      kinds: { amount: 'cents', threshold: 'cents' },
    }),
  };
}

/** What to do about a finding: fixed per type (and, for an amount, its direction); a screen shows them through `t`. */
export function recommendationsFor(type: AnomalyType, amountCents: number, expectedCents: number): string[] {
  if (type === 'duplicate')
    return [
      msg('Check whether the vendor billed twice'),
      msg('Delete the duplicate entry if it was entered twice'),
      msg('Ask the vendor for a refund if it was paid twice'),
    ];
  if (type === 'new_vendor')
    return [msg('Confirm the vendor is approved'), msg('Check the contract or purchase order behind this payment')];
  return amountCents >= expectedCents
    ? [
        msg('Check the receipt and the approval for this expense'),
        msg('Confirm it was booked to the right category and department'),
        msg('If it is a one-off, note why in its description'),
      ]
    : [
        msg('Check whether this is a partial payment or a refund booked as an expense'),
        msg('Confirm the amount against the receipt'),
      ];
}

/** Most severe first, then the most recent, then the highest id (the stored ranking's order). */
export function byRank(a: AnomalyFinding, b: AnomalyFinding): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    (a.date < b.date ? 1 : a.date > b.date ? -1 : b.expenseId - a.expenseId)
  );
}
