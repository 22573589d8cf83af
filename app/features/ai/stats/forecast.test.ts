// The prediction engine on series whose answers are known: a straight line, a flat series with a
// December peak, noise, gaps and too little history.
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  continuous,
  forecast,
  linearFit,
  seasonalIndices,
  seasonalTrend,
  STABLE_THRESHOLD,
  type MonthTotal,
} from './forecast.ts';

const series = (start: string, values: number[]): MonthTotal[] =>
  values.map((cents, i) => ({ month: addMonths(start, i), cents }));

describe('forecast', () => {
  it('months: add across years; gaps become zero months', () => {
    expect(addMonths('2025-11', 1)).toBe('2025-12');
    expect(addMonths('2025-11', 2)).toBe('2026-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(
      continuous([
        { month: '2026-03', cents: 5 },
        { month: '2026-01', cents: 1 },
        { month: '2026-01', cents: 2 },
      ]),
    ).toEqual([
      { month: '2026-01', cents: 3 },
      { month: '2026-02', cents: 0 },
      { month: '2026-03', cents: 5 },
    ]);
  });

  it('least squares recovers a known line', () => {
    expect(linearFit([10, 12, 14, 16])).toEqual({ intercept: 10, slope: 2 });
    expect(linearFit([7])).toEqual({ intercept: 7, slope: 0 });
  });

  it('a straight upward line: the exact next months, full confidence, increasing, the slope named', () => {
    // 100 000 cents growing by 4 000 a month for 18 months.
    const line = series(
      '2025-01',
      Array.from({ length: 18 }, (_, i) => 100_000 + 4_000 * i),
    );
    const result = forecast(line, 3);
    expect(result.monthly.map((m) => m.month)).toEqual(['2026-07', '2026-08', '2026-09']);
    expect(result.monthly.map((m) => m.cents)).toEqual([172_000, 176_000, 180_000]);
    expect(result.predictedCents).toBe(528_000);
    expect(result.confidence).toBe(1);
    expect(result.trend).toBe('increasing');
    expect(result.historicalAverageCents).toBe(134_000);
    // 4 000 / 134 000 = +3.0 %/month.
    expect(result.factors[0]).toBe('18-month upward trend +3.0%/month');
    expect(result.seasonalPattern).toBe(false);
    expect(result.monthly[0].lowCents).toBe(172_000);
  });

  it('a falling line is decreasing, a flat one stable (the threshold is 1 % of the average month a month)', () => {
    expect(
      forecast(
        series(
          '2025-01',
          Array.from({ length: 12 }, (_, i) => 50_000 - 1_000 * i),
        ),
        1,
      ).trend,
    ).toBe('decreasing');
    const flat = forecast(series('2025-01', Array(12).fill(20_000)), 6);
    expect(flat.trend).toBe('stable');
    expect(flat.predictedCents).toBe(120_000);
    expect(STABLE_THRESHOLD).toBe(0.01);
    // Just under the threshold still reads stable.
    expect(
      forecast(
        series(
          '2025-01',
          Array.from({ length: 12 }, (_, i) => 100_000 + 900 * i),
        ),
        1,
      ).trend,
    ).toBe('stable');
  });

  it('two years with a December peak: the seasonal pattern, its index, and a December forecast above the rest', () => {
    // Flat 10 000 a month, December 13 000 (1.3× the others; about 1.27× the average month).
    const values = Array.from({ length: 36 }, (_, i) => (i % 12 === 11 ? 13_000 : 10_000));
    const history = series('2023-01', values);
    const fit = seasonalTrend(values)!;
    expect(fit.slope).toBe(0);
    const indices = seasonalIndices(history, fit)!;
    expect(indices[11] / indices[0]).toBeCloseTo(1.3, 5);
    const result = forecast(history, 12);
    expect(result.seasonalPattern).toBe(true);
    expect(result.trend).toBe('stable');
    expect(result.factors).toContain('December is 1.3× the average month');
    const december = result.monthly.find((m) => m.month === '2026-12')!;
    const june = result.monthly.find((m) => m.month === '2026-06')!;
    expect(december.cents / june.cents).toBeCloseTo(1.3, 2);
    expect(result.predictedCents).toBeCloseTo(11 * 10_000 + 13_000, -2);
    expect(result.confidence).toBe(1);
  });

  it('a rising line with a seasonal swing: the slope from year-over-year changes, the season on top', () => {
    // 10 000 + 100 a month, July 1.5× the trend.
    const values = Array.from({ length: 36 }, (_, i) => (10_000 + 100 * i) * (i % 12 === 6 ? 1.5 : 1));
    const result = forecast(series('2023-01', values), 12);
    expect(result.seasonalPattern).toBe(true);
    expect(result.trend).toBe('stable');
    const july = result.monthly.find((m) => m.month === '2026-07')!.cents;
    const june = result.monthly.find((m) => m.month === '2026-06')!.cents;
    expect(july / june).toBeGreaterThan(1.4);
    expect(result.factors.some((f) => f.startsWith('July is'))).toBe(true);
  });

  it('seasons need 24 months: fewer say so and predict the trend alone', () => {
    const values = Array.from({ length: 20 }, (_, i) => (i % 12 === 11 ? 13_000 : 10_000));
    const result = forecast(series('2024-01', values), 1);
    expect(result.seasonalPattern).toBe(false);
    expect(result.factors).toContain('20 of the 24 months needed to see seasons');
  });

  it('noise and short history lower the confidence; an empty series predicts nothing', () => {
    const noisy = forecast(
      series('2025-01', [10_000, 30_000, 5_000, 40_000, 8_000, 35_000, 12_000, 28_000, 6_000, 33_000, 9_000, 31_000]),
      3,
    );
    expect(noisy.confidence).toBeLessThan(0.6);
    expect(noisy.factors).toContain('Amounts vary widely from month to month: the prediction is rough');
    for (const m of noisy.monthly) {
      expect(m.lowCents).toBeLessThanOrEqual(m.cents);
      expect(m.highCents).toBeGreaterThan(m.cents);
    }
    const short = forecast(series('2026-01', [10_000, 10_500, 11_000]), 3);
    expect(short.confidence).toBeLessThanOrEqual(0.25);
    expect(forecast([], 3)).toMatchObject({ predictedCents: 0, monthly: [], confidence: 0, trend: 'stable' });
  });

  it('never predicts a negative month', () => {
    const falling = forecast(
      series(
        '2025-01',
        Array.from({ length: 12 }, (_, i) => 12_000 - 1_000 * i),
      ),
      6,
    );
    expect(falling.monthly.every((m) => m.cents >= 0 && m.lowCents >= 0)).toBe(true);
  });
});
