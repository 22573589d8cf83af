// AI analytics over the books: expense predictions and budget
// analysis, computed by the engine in ./ai from the expenses and budgets the caller may see
// (expense anomalies: ai-anomalies.server.ts). Needs the analytics permission; a user limited
// to one company gets that company's numbers only (another company's id is a 404).
// Amounts are US dollars.
import { z } from 'zod';
import { analyzeBudget } from './stats/budget-variance.ts';
import { addMonths, forecast } from './stats/forecast.ts';
import type { BudgetAnalysis, ExpensePrediction } from './answers.ts';
import { actorCompanyScope, requirePermission, type Db, type ServiceContext } from '../../platform/context.ts';
import { fieldErrorsFromZod, invalid, notFound } from '../../platform/errors.ts';
import { budgetFigures, expenseMonthSeries } from '../finance/index.server.ts';
import { ENGLISH, type Wording } from './wording.server.ts';

export const PREDICTION_MONTHS = [1, 3, 6, 12] as const;
export const ANOMALY_WINDOWS = [7, 14, 30, 90] as const;
export const BUDGET_YEARS = [2024, 2025, 2026] as const;
export const SELECT_COMPANY = 'Please select a company for budget analysis';
/** Expenses older than this many months are not read for predictions and anomaly baselines. */
const HISTORY_MONTHS = 36;

export type { BudgetAnalysis, ExpensePrediction };

const dollars = (cents: number) => Math.round(cents) / 100;

/** The company the caller asks about, within their scope: a scoped user's own (another is a 404). */
export function companyInScope(ctx: ServiceContext, requested: number | null | undefined): number | null {
  const scope = actorCompanyScope(ctx);
  if (scope !== null && requested != null && requested !== scope) throw notFound();
  return requested ?? scope;
}

/** companyInScope, and the company must exist (404). */
export async function scopedCompany(ctx: ServiceContext, requested: number | null | undefined): Promise<number | null> {
  const companyId = companyInScope(ctx, requested);
  if (companyId !== null) {
    const exists = await ctx.db.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
    if (!exists) throw notFound();
  }
  return companyId;
}

export const optionalId = z.preprocess(
  (v) => (v === '' || v === null ? undefined : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z.number({ error: 'Must be an id' }).int().positive().max(2_147_483_647).optional(),
);
export const choice = <T extends readonly number[]>(values: T, name: string, fallback: T[number]) =>
  z.preprocess(
    (v) =>
      v === '' || v === null || v === undefined ? fallback : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v,
    z.number().refine((n) => (values as readonly number[]).includes(n), `${name} must be one of ${values.join(', ')}`),
  );

export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  return parsed.data;
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
function monthsBefore(now: Date, months: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
  return isoDay(d);
}

async function names(
  db: Db,
  table: 'departments' | 'expenseCategories',
  ids: Iterable<number>,
): Promise<Map<number, string>> {
  const list = [...new Set(ids)];
  if (list.length === 0) return new Map();
  const rows = await db.selectFrom(table).select(['id', 'name']).where('id', 'in', list).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export const PredictionRequest = z.object({
  companyId: optionalId,
  departmentId: optionalId,
  categoryId: optionalId,
  months: choice(PREDICTION_MONTHS, 'months', 3),
});

/**
 * POST /api/ai/predict-expenses: per category × department, the next 1, 3, 6 or 12 months from the
 * current one; the factors in `wording`'s words (the Predictions tab: the reader's).
 */
export async function predictExpenses(
  ctx: ServiceContext,
  input: unknown,
  now = new Date(),
  wording: Wording = ENGLISH,
): Promise<ExpensePrediction[]> {
  requirePermission(ctx, 'analytics');
  const request = parse(PredictionRequest, input);
  const companyId = await scopedCompany(ctx, request.companyId);
  // Complete months only: the current month is still being booked, so it is predicted, not read.
  const current = now.toISOString().slice(0, 7);
  const rows = await expenseMonthSeries(ctx.db, {
    companyId,
    from: monthsBefore(now, HISTORY_MONTHS).slice(0, 7),
    to: addMonths(current, -1),
    departmentId: request.departmentId,
    categoryId: request.categoryId,
  });
  const groups = new Map<
    string,
    { categoryId: number; departmentId: number; series: { month: string; cents: number }[] }
  >();
  for (const row of rows) {
    const key = `${row.categoryId}:${row.departmentId}`;
    const group = groups.get(key) ?? { categoryId: row.categoryId, departmentId: row.departmentId, series: [] };
    group.series.push({ month: row.month, cents: row.cents });
    groups.set(key, group);
  }
  const categoryIds = [...new Set([...groups.values()].map((g) => g.categoryId))];
  const [categoryRows, departments] = await Promise.all([
    categoryIds.length
      ? ctx.db
          .selectFrom('expenseCategories as c')
          .innerJoin('companies as co', 'co.id', 'c.companyId')
          .select(['c.id', 'c.name', 'c.companyId', 'co.name as companyName'])
          .where('c.id', 'in', categoryIds)
          .execute()
      : [],
    names(
      ctx.db,
      'departments',
      [...groups.values()].map((g) => g.departmentId),
    ),
  ]);
  const categories = new Map(categoryRows.map((r) => [r.id, r]));
  return [...groups.values()]
    .map((g) => {
      const result = forecast(g.series, request.months, wording);
      return {
        companyId: categories.get(g.categoryId)?.companyId ?? 0,
        companyName: categories.get(g.categoryId)?.companyName ?? '',
        categoryId: g.categoryId,
        categoryName: categories.get(g.categoryId)?.name ?? '',
        departmentId: g.departmentId,
        departmentName: departments.get(g.departmentId) ?? '',
        predictedAmount: dollars(result.predictedCents),
        confidence: result.confidence,
        historicalAverage: dollars(result.historicalAverageCents),
        seasonalPattern: result.seasonalPattern,
        trend: result.trend,
        factors: result.factors,
        months: request.months,
        history: [...g.series]
          .sort((a, b) => a.month.localeCompare(b.month))
          .map((s) => ({ month: s.month, amount: dollars(s.cents) })),
        forecast: result.monthly.map((m) => ({
          month: m.month,
          amount: dollars(m.cents),
          low: dollars(m.lowCents),
          high: dollars(m.highCents),
        })),
      };
    })
    .sort((a, b) => b.predictedAmount - a.predictedAmount || a.categoryName.localeCompare(b.categoryName));
}

/** GET /api/ai/budget-analysis/{companyId}/{year}: the company's year, budget (each month's one plan) against actual. */
export async function analyzeCompanyBudget(
  ctx: ServiceContext,
  input: { companyId?: unknown; year?: unknown },
  wording: Wording = ENGLISH,
): Promise<BudgetAnalysis> {
  requirePermission(ctx, 'analytics');
  const request = parse(
    z.object({
      companyId: z.preprocess(
        (v) =>
          v === '' || v === null || v === undefined
            ? undefined
            : typeof v === 'string' && /^\d+$/.test(v)
              ? Number(v)
              : v,
        z.number({ error: SELECT_COMPANY }).int().positive().max(2_147_483_647, SELECT_COMPANY),
      ),
      year: choice(BUDGET_YEARS, 'year', new Date().getUTCFullYear() as (typeof BUDGET_YEARS)[number]),
    }),
    input,
  );
  const companyId = (await scopedCompany(ctx, request.companyId))!;
  const { year } = request;
  const figures = await budgetFigures(ctx.db, { companyId, from: `${year}-01`, to: `${year}-12` }, ['category']);
  const categoryNames = await names(
    ctx.db,
    'expenseCategories',
    figures.map((f) => f.categoryId!),
  );
  const result = analyzeBudget(
    year,
    figures.map((f) => ({ categoryId: f.categoryId!, budgetCents: f.planCents, actualCents: f.actualCents })),
    categoryNames,
    wording,
  );
  return {
    companyId,
    year,
    totalBudget: dollars(result.totalBudgetCents),
    totalActual: dollars(result.totalActualCents),
    variance: dollars(result.varianceCents),
    variancePercentage: result.variancePercentage,
    categories: result.categories.map((c) => ({
      categoryName: c.categoryName,
      budget: dollars(c.budgetCents),
      actual: dollars(c.actualCents),
      variance: dollars(c.varianceCents),
      variancePercentage: c.variancePercentage,
    })),
    recommendations: result.recommendations,
  };
}
