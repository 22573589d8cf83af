// Expense anomalies as the screen, /api, the chat and insights read them:
// the stored findings of the current run of the expense-anomalies job
// (expense-anomalies.server.ts), filtered by company, department and window, ranked (most
// severe, then most recent) and paged, with the time they were computed. A request never reads
// the books: its cost is a page of an index and the window's day rows, whatever their size.
// Before the first run (or while the books changed since the last one) a reader asks for a run
// and says so. Needs the analytics permission; a user limited to one company gets that
// company's findings only (another company's id is a 404). Amounts are US dollars.
import { z } from 'zod';
import { ANOMALY_WINDOWS, choice, optionalId, parse, scopedCompany } from './ai-analytics.server.ts';
import { explanationIn, recommendationsFor, type ExplanationText } from './stats/outliers.ts';
import { INTL_LOCALES } from '../../platform/i18n/locales.ts';
import { ENGLISH, type Wording } from './wording.server.ts';
import type { ExpenseAnomaly } from './answers.ts';
import { requestAnomalyRun } from './anomaly-runs.server.ts';
import { expensesToken } from '../finance/index.server.ts';
import { requirePermission, type Db, type ServiceContext } from '../../platform/context.ts';
import { currentRun, windowStart } from './expense-anomalies.server.ts';

/** The most a page holds (the /api maximum, docs/api.md). */
export const MAX_ANOMALY_PAGE = 1000;
export const ANOMALIES_COMPUTING = 'Anomalies are being computed for the first time. Try again in a minute.';

const pageNumber = (name: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z
      .number({ error: `${name} must be a whole number` })
      .int()
      .min(min, `${name} must be at least ${min}`)
      .max(max, `${name} must be at most ${max}`)
      .optional(),
  );

export const AnomalyRequest = z.object({
  companyId: optionalId,
  departmentId: optionalId,
  lookbackDays: choice(ANOMALY_WINDOWS, 'lookbackDays', 30),
  limit: pageNumber('limit', 1, MAX_ANOMALY_PAGE),
  offset: pageNumber('offset', 0, 2_147_483_647),
});

export type { ExpenseAnomaly };

export interface AnomalyPage {
  anomalies: ExpenseAnomaly[];
  /** Findings of the window for these filters. */
  total: number;
  limit: number;
  offset: number;
  /** When the findings were computed (ISO); null: the first computation is still to come. */
  computedAt: string | null;
  /** The books changed after that: a new computation has been asked for. */
  stale: boolean;
}

const dollars = (cents: number) => Math.round(Number(cents)) / 100;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

async function names(
  db: Db,
  table: 'companies' | 'departments' | 'expenseCategories',
  ids: number[],
): Promise<Map<number, string>> {
  const list = [...new Set(ids)];
  if (list.length === 0) return new Map();
  const rows = await db.selectFrom(table).select(['id', 'name']).where('id', 'in', list).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

interface Scope {
  generation: number | null;
  computedAt: string | null;
  stale: boolean;
  companyId: number | null;
  departmentId: number | undefined;
  since: string;
}

/** The checked request, the current run, and whether the books moved on since it (then a run is asked for). */
async function scopeOf(ctx: ServiceContext, request: z.output<typeof AnomalyRequest>, now: Date): Promise<Scope> {
  const companyId = await scopedCompany(ctx, request.companyId);
  const [run, token] = await Promise.all([currentRun(ctx.db), expensesToken(ctx.db)]);
  const stale = run !== null && run.booksToken !== token;
  if (!run || stale) requestAnomalyRun(ctx);
  return {
    generation: run?.generation ?? null,
    computedAt: run?.computedAt ?? null,
    stale,
    companyId,
    departmentId: request.departmentId,
    since: windowStart(now, request.lookbackDays),
  };
}

function dayRows(db: Db, scope: Scope) {
  return db
    .selectFrom('expenseAnomalyDays as d')
    .where('d.generation', '=', scope.generation!)
    .where('d.day', '>=', scope.since)
    .$if(scope.companyId !== null, (q) => q.where('d.companyId', '=', scope.companyId!))
    .$if(scope.departmentId !== undefined, (q) => q.where('d.departmentId', '=', scope.departmentId!));
}

/**
 * A stored finding's explanation for the reader: the English the job stored, or its message and
 * values in the reader's words and formats (a row stored before had no message: its English).
 */
function explanationFor(row: { explanation: string; explanationText: string | null }, wording: Wording): string {
  if (wording.locale === 'en' || !row.explanationText) return row.explanation;
  const decimal = new Intl.NumberFormat(INTL_LOCALES[wording.locale], { maximumFractionDigits: 1 });
  return explanationIn(JSON.parse(row.explanationText) as ExplanationText, {
    t: wording.t,
    cents: (cents) => wording.money(cents / 100, 2),
    day: wording.day,
    decimal: (value) => decimal.format(value),
  });
}

/**
 * POST /api/ai/detect-anomalies and the Anomalies tab: a page of the expenses of the last 7, 14,
 * 30 or 90 days that stand out (default the first 1000), with their total and computation time.
 */
export async function detectExpenseAnomalies(
  ctx: ServiceContext,
  input: unknown,
  now = new Date(),
  wording: Wording = ENGLISH,
): Promise<AnomalyPage> {
  requirePermission(ctx, 'analytics');
  const request = parse(AnomalyRequest, input);
  const limit = request.limit ?? MAX_ANOMALY_PAGE;
  const offset = request.offset ?? 0;
  const scope = await scopeOf(ctx, request, now);
  if (scope.generation === null) return { anomalies: [], total: 0, limit, offset, computedAt: null, stale: false };
  // The page from the ranking index alone, then the names of its few rows.
  const [rows, counted] = await Promise.all([
    ctx.db
      .selectFrom('expenseAnomalies as a')
      .select([
        'a.expenseId',
        'a.companyId',
        'a.categoryId',
        'a.departmentId',
        'a.anomalyType',
        'a.severity',
        'a.amountCents',
        'a.expectedCents',
        'a.deviation',
        'a.expenseDate',
        'a.explanation',
        'a.explanationText',
      ])
      .where('a.generation', '=', scope.generation)
      .$if(scope.companyId !== null, (q) => q.where('a.companyId', '=', scope.companyId!))
      .where('a.expenseDate', '>=', scope.since)
      .$if(scope.departmentId !== undefined, (q) => q.where('a.departmentId', '=', scope.departmentId!))
      .orderBy('a.severityRank')
      .orderBy('a.expenseDate', 'desc')
      .orderBy('a.expenseId', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    dayRows(ctx.db, scope)
      .select((eb) => eb.fn.sum<number>('d.findings').as('total'))
      .executeTakeFirst(),
  ]);
  const [companies, categories, departments] = await Promise.all([
    names(
      ctx.db,
      'companies',
      rows.map((r) => r.companyId),
    ),
    names(
      ctx.db,
      'expenseCategories',
      rows.map((r) => r.categoryId),
    ),
    names(
      ctx.db,
      'departments',
      rows.map((r) => r.departmentId),
    ),
  ]);
  return {
    anomalies: rows.map((r) => ({
      expenseId: r.expenseId,
      companyId: r.companyId,
      companyName: companies.get(r.companyId) ?? '',
      categoryName: categories.get(r.categoryId) ?? '',
      departmentName: departments.get(r.departmentId) ?? '',
      anomalyType: r.anomalyType,
      severity: r.severity,
      amount: dollars(r.amountCents),
      expectedAmount: dollars(r.expectedCents),
      deviation: Number(r.deviation),
      date: String(r.expenseDate).slice(0, 10),
      explanation: explanationFor(r, wording),
      recommendations: recommendationsFor(r.anomalyType, Number(r.amountCents), Number(r.expectedCents)),
    })),
    total: Number(counted?.total ?? 0),
    limit,
    offset,
    computedAt: scope.computedAt,
    stale: scope.stale,
  };
}

export interface AnomalyDay {
  date: string;
  /** What was spent that day (as computed with the findings). */
  amount: number;
  /** The largest flagged amount of the day (null: nothing flagged). */
  flagged: number | null;
}

/** The daily expense totals of an anomaly window (every day up to today, zero when nothing was spent), with the day's largest finding: the chart's series. */
export async function dailyExpenses(ctx: ServiceContext, input: unknown, now = new Date()): Promise<AnomalyDay[]> {
  requirePermission(ctx, 'analytics');
  const request = parse(AnomalyRequest, input);
  const scope = await scopeOf(ctx, request, now);
  const today = isoDay(now);
  const rows =
    scope.generation === null
      ? []
      : await dayRows(ctx.db, scope)
          .where('d.day', '<=', today)
          .select((eb) => [
            'd.day',
            eb.fn.sum<number>('d.spentCents').as('cents'),
            eb.fn.max('d.largestCents').as('largest'),
          ])
          .groupBy('d.day')
          .execute();
  const byDay = new Map(rows.map((r) => [String(r.day).slice(0, 10), r]));
  const first = Date.parse(`${scope.since}T00:00:00Z`);
  return Array.from({ length: request.lookbackDays }, (_, i) => {
    const date = isoDay(new Date(first + i * 86_400_000));
    const row = byDay.get(date);
    return {
      date,
      amount: dollars(Number(row?.cents ?? 0)),
      flagged: row?.largest == null ? null : dollars(Number(row.largest)),
    };
  });
}

/** How many findings of the window are critical or high, and the first of them: what an insight warns about. */
export async function seriousAnomalies(
  ctx: ServiceContext,
  input: { companyId?: number; lookbackDays: number },
  now = new Date(),
  wording: Wording = ENGLISH,
): Promise<{ count: number; top: ExpenseAnomaly | null; critical: boolean; computedAt: string | null }> {
  requirePermission(ctx, 'analytics');
  const request = parse(AnomalyRequest, { companyId: input.companyId, lookbackDays: input.lookbackDays });
  const scope = await scopeOf(ctx, request, now);
  if (scope.generation === null) return { count: 0, top: null, critical: false, computedAt: null };
  const counts = await ctx.db
    .selectFrom('expenseAnomalies as a')
    .select(['a.severity', (eb) => eb.fn.countAll<number>().as('n')])
    .where('a.generation', '=', scope.generation)
    .$if(scope.companyId !== null, (q) => q.where('a.companyId', '=', scope.companyId!))
    .where('a.severityRank', '<=', 1)
    .where('a.expenseDate', '>=', scope.since)
    .groupBy('a.severity')
    .execute();
  const count = counts.reduce((s, c) => s + Number(c.n), 0);
  const top = count
    ? ((await detectExpenseAnomalies(ctx, { ...request, limit: 1 }, now, wording)).anomalies[0] ?? null)
    : null;
  return {
    count,
    top,
    critical: counts.some((c) => c.severity === 'critical' && Number(c.n) > 0),
    computedAt: scope.computedAt,
  };
}
