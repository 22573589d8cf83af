// Expense predictions without a network (docs/decisions.md): a least-squares trend on monthly
// totals, seasonal indices once two full years exist, a confidence from the fit's error and the
// amount of history, and factors that say what drove the number. Pure: series in, answer out;
// the factors in the reader's words (English by default).
import { ENGLISH, type Wording } from '../wording.server.ts';

/** One month's total, in cents; months without expenses count as 0 between the first and last. */
export interface MonthTotal {
  /** 'YYYY-MM'. */
  month: string;
  cents: number;
}

export type Trend = 'increasing' | 'decreasing' | 'stable';

export interface Forecast {
  /** The total predicted over the horizon, in cents. */
  predictedCents: number;
  /** Per future month, in cents (never below 0). */
  monthly: { month: string; cents: number; lowCents: number; highCents: number }[];
  /** 0–1. */
  confidence: number;
  historicalAverageCents: number;
  seasonalPattern: boolean;
  trend: Trend;
  /** Slope as a share of the average month (0.041 = +4.1 %/month). */
  monthlyChange: number;
  factors: string[];
}

/** A trend moving less than this share of the average month per month reads 'stable'. */
export const STABLE_THRESHOLD = 0.01;
/** Seasonal indices need this many months (two full years). */
export const SEASONAL_MONTHS = 24;
/** A month whose index is this far from 1 is named as a factor. */
const SEASONAL_NOTABLE = 0.15;

export function addMonths(month: string, n: number): string {
  // Called for every month of every series a prediction reads: plain arithmetic, no arrays.
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  const year = Math.floor(index / 12);
  const m = index - year * 12 + 1;
  return `${year}-${m < 10 ? '0' : ''}${m}`;
}

const monthIndex = (month: string) => Number(month.slice(5, 7)) - 1;

/** The series from its first to its last month, with the missing months as 0, in order. */
export function continuous(series: readonly MonthTotal[]): MonthTotal[] {
  if (series.length === 0) return [];
  const byMonth = new Map<string, number>();
  for (const { month, cents } of series) byMonth.set(month, (byMonth.get(month) ?? 0) + cents);
  const months = [...byMonth.keys()].sort();
  const out: MonthTotal[] = [];
  for (let month = months[0]; month <= months[months.length - 1]; month = addMonths(month, 1))
    out.push({ month, cents: byMonth.get(month) ?? 0 });
  return out;
}

/** Ordinary least squares of y over x = 0..n-1: intercept and slope. */
export function linearFit(values: readonly number[]): { intercept: number; slope: number } {
  const n = values.length;
  if (n === 0) return { intercept: 0, slope: 0 };
  if (n === 1) return { intercept: values[0], slope: 0 };
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  values.forEach((y, x) => {
    sxy += (x - meanX) * (y - meanY);
    sxx += (x - meanX) ** 2;
  });
  const slope = sxy / sxx;
  return { intercept: meanY - slope * meanX, slope };
}

/** The trend of a series of at least SEASONAL_MONTHS months from its year-over-year changes; null when shorter. */
export function seasonalTrend(values: readonly number[]): { intercept: number; slope: number } | null {
  const n = values.length;
  if (n < SEASONAL_MONTHS) return null;
  let sum = 0;
  for (let x = 0; x + 12 < n; x += 1) sum += (values[x + 12] - values[x]) / 12;
  const slope = sum / (n - 12);
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  return { intercept: meanY - slope * ((n - 1) / 2), slope };
}

/**
 * Multiplicative seasonal indices by calendar month (average 1): each month's ratio to the
 * trend, averaged over the years. Null with fewer than SEASONAL_MONTHS months.
 */
export function seasonalIndices(
  series: readonly MonthTotal[],
  fit: { intercept: number; slope: number },
): number[] | null {
  if (series.length < SEASONAL_MONTHS) return null;
  const sums = Array<number>(12).fill(0);
  const counts = Array<number>(12).fill(0);
  series.forEach(({ month, cents }, x) => {
    const expected = fit.intercept + fit.slope * x;
    if (expected <= 0) return;
    sums[monthIndex(month)] += cents / expected;
    counts[monthIndex(month)] += 1;
  });
  if (counts.some((c) => c === 0)) return null;
  const raw = sums.map((s, i) => s / counts[i]);
  const mean = raw.reduce((a, b) => a + b, 0) / 12;
  return raw.map((r) => r / mean);
}

const round = (n: number) => Math.round(n);

/** Predicts the next `months` months of a monthly series (cents). */
export function forecast(input: readonly MonthTotal[], months: number, wording: Wording = ENGLISH): Forecast {
  const { t } = wording;
  const series = continuous(input);
  const n = series.length;
  const values = series.map((s) => s.cents);
  const average = n ? values.reduce((a, b) => a + b, 0) / n : 0;
  if (n === 0) {
    return {
      predictedCents: 0,
      monthly: [],
      confidence: 0,
      historicalAverageCents: 0,
      seasonalPattern: false,
      trend: 'stable',
      monthlyChange: 0,
      factors: [t('No expenses recorded yet: nothing to predict from')],
    };
  }
  // With two years the trend is read from year-over-year changes, which seasons do not bias
  // (a December peak at the end of each year would tilt a plain least-squares line).
  const yearly = seasonalTrend(values);
  const indices = yearly ? seasonalIndices(series, yearly) : null;
  const seasonal = indices !== null && indices.some((i) => Math.abs(i - 1) >= SEASONAL_NOTABLE);
  const fit = seasonal ? yearly! : linearFit(values);
  const expectedAt = (x: number, month: string) =>
    (fit.intercept + fit.slope * x) * (seasonal ? indices![monthIndex(month)] : 1);

  // The fit's error: residual standard deviation relative to the average month.
  const residuals = series.map(({ month, cents }, x) => cents - expectedAt(x, month));
  const rmse = n > 2 ? Math.sqrt(residuals.reduce((a, r) => a + r * r, 0) / (n - 2)) : average;
  const relativeError = average > 0 ? rmse / average : 1;
  // More history, a tighter fit: more confidence. 12 months of history count fully.
  const historyWeight = Math.min(1, n / 12);
  const confidence = Math.max(0, Math.min(1, historyWeight * (1 - Math.min(1, relativeError))));

  const monthlyChange = average > 0 ? fit.slope / average : 0;
  const trend: Trend =
    monthlyChange > STABLE_THRESHOLD ? 'increasing' : monthlyChange < -STABLE_THRESHOLD ? 'decreasing' : 'stable';
  const last = series[n - 1].month;
  const monthly = Array.from({ length: months }, (_, i) => {
    const month = addMonths(last, i + 1);
    const cents = Math.max(0, expectedAt(n + i, month));
    // The band widens with the distance from the data (about 95 %).
    const spread = 1.96 * rmse * Math.sqrt(1 + (i + 1) / Math.max(n, 1));
    return {
      month,
      cents: round(cents),
      lowCents: round(Math.max(0, cents - spread)),
      highCents: round(cents + spread),
    };
  });

  const factors: string[] = [];
  const change = wording.change(monthlyChange * 100);
  if (trend === 'stable')
    factors.push(
      t('{count, plural, one {Stable over # month ({change}/month)} other {Stable over # months ({change}/month)}}', {
        count: n,
        change,
      }),
    );
  else if (trend === 'increasing')
    factors.push(t('{months}-month upward trend {change}/month', { months: String(n), change }));
  else factors.push(t('{months}-month downward trend {change}/month', { months: String(n), change }));
  if (seasonal) {
    const notable = indices!
      .map((index, month) => ({ index, month }))
      .filter(({ index }) => Math.abs(index - 1) >= SEASONAL_NOTABLE)
      .sort((a, b) => Math.abs(b.index - 1) - Math.abs(a.index - 1))
      .slice(0, 2);
    for (const { index, month } of notable)
      factors.push(
        t('{month} is {times}× the average month', { month: wording.month(month + 1), times: wording.tenths(index) }),
      );
  } else if (n < SEASONAL_MONTHS) {
    factors.push(
      t('{count} of the {needed} months needed to see seasons', { count: String(n), needed: String(SEASONAL_MONTHS) }),
    );
  }
  if (relativeError > 0.5) factors.push(t('Amounts vary widely from month to month: the prediction is rough'));

  return {
    predictedCents: monthly.reduce((a, m) => a + m.cents, 0),
    monthly,
    confidence: Math.round(confidence * 100) / 100,
    historicalAverageCents: round(average),
    seasonalPattern: seasonal,
    trend,
    monthlyChange,
    factors,
  };
}
