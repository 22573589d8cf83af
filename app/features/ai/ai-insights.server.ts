// AI insights: trend, forecast, optimization and alert cards computed
// from the same predictions, anomalies and budget analysis the screen shows, per company and for
// the whole group. The nightly ai-insights job (or 'Generate now') replaces a company's previous
// insights in one transaction. A user limited to one company reads that company's only.
import { toJson } from '../../../db/dialect.ts';
import type { InsightPriority } from '../../../db/types.ts';
import type { Insight } from './answers.ts';
import {
  analyzeCompanyBudget,
  BUDGET_YEARS,
  companyInScope,
  predictExpenses,
  scopedCompany,
  type ExpensePrediction,
} from './ai-analytics.server.ts';
import { seriousAnomalies } from './ai-anomalies.server.ts';
import { narrateInsights } from './ai-model.server.ts';
import type { OpenAiSettings } from '../../platform/config.server.ts';
import {
  actorCompanyScope,
  inTransaction,
  requirePermission,
  systemActor,
  type Db,
  type ServiceContext,
} from '../../platform/context.ts';
import { refreshExpenseAnomalies } from './expense-anomalies.server.ts';

export type { Insight };

type Draft = Omit<Insight, 'id' | 'companyId' | 'companyName' | 'generatedAt' | 'narrated'> & { narrated?: boolean };

const usd = (amount: number) =>
  `$${amount.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 0 })}`;

/** The companies of these predictions' categories, by category id. */
async function companiesOf(db: Db, predictions: (ExpensePrediction | undefined)[]): Promise<Map<number, string>> {
  const ids = predictions.filter((p) => p !== undefined).map((p) => p.categoryId);
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('expenseCategories as c')
    .innerJoin('companies as co', 'co.id', 'c.companyId')
    .select(['c.id', 'co.name'])
    .where('c.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * The insights the books support now, for one company or (null) the group. A group insight is a
 * group figure (the sum over every company) or names the company its one series belongs to.
 */
export async function draftInsights(ctx: ServiceContext, companyId: number | null, now = new Date()): Promise<Draft[]> {
  const filter = companyId === null ? {} : { companyId };
  const [predictions, anomalies] = await Promise.all([
    predictExpenses(ctx, { ...filter, months: 3 }, now),
    seriousAnomalies(ctx, { ...filter, lookbackDays: 30 }, now),
  ]);
  const drafts: Draft[] = [];
  const scopeName = companyId === null ? 'the group' : 'this company';

  if (predictions.length) {
    const total = predictions.reduce((s, p) => s + p.predictedAmount, 0);
    const average = predictions.reduce((s, p) => s + p.historicalAverage, 0) * 3;
    const change = average > 0 ? (total - average) / average : 0;
    drafts.push({
      type: 'forecast',
      priority: change > 0.2 ? 'high' : 'medium',
      impact: change > 0.05 ? 'negative' : change < -0.05 ? 'positive' : 'neutral',
      title: `Expenses of the next 3 months: about ${usd(total)}`,
      description: `Predicted from ${predictions.length} category and department series of ${scopeName}; ${change >= 0 ? 'up' : 'down'} ${Math.abs(Math.round(change * 100))}% on the average of the months recorded.`,
      actionItems: [
        'Compare the prediction with the budgets of the coming months',
        "Open Predictions for each category's trend and confidence",
      ],
    });
    const rising = predictions
      .filter((p) => p.trend === 'increasing' && p.confidence >= 0.5)
      .sort((a, b) => b.predictedAmount - a.predictedAmount)[0];
    const falling = predictions
      .filter((p) => p.trend === 'decreasing' && p.confidence >= 0.5)
      .sort((a, b) => b.historicalAverage - a.historicalAverage)[0];
    // One series is one company's: the group's insight says whose.
    const owners = companyId === null ? await companiesOf(ctx.db, [rising, falling]) : new Map<number, string>();
    const whose = (p: ExpensePrediction) => (owners.has(p.categoryId) ? `${owners.get(p.categoryId)}: ` : '');
    const within = (p: ExpensePrediction) => (owners.has(p.categoryId) ? ` at ${owners.get(p.categoryId)}` : '');
    if (rising) {
      drafts.push({
        type: 'trend',
        priority: rising.confidence >= 0.8 ? 'high' : 'medium',
        impact: 'negative',
        title: `${rising.categoryName} spending is rising${within(rising)}`,
        description: `${whose(rising)}${rising.categoryName} (${rising.departmentName}): ${rising.factors[0]}. About ${usd(rising.predictedAmount)} expected over the next 3 months (confidence ${Math.round(rising.confidence * 100)}%).`,
        actionItems: [
          `Review the largest ${rising.categoryName} expenses of recent months`,
          'Check whether the rise was planned in the budget',
        ],
      });
    }
    if (falling) {
      drafts.push({
        type: 'trend',
        priority: 'low',
        impact: 'positive',
        title: `${falling.categoryName} spending is falling${within(falling)}`,
        description: `${whose(falling)}${falling.categoryName} (${falling.departmentName}): ${falling.factors[0]}.`,
        actionItems: ['Keep what brought the cost down', 'Consider moving the freed budget where spending rises'],
      });
    }
  }

  if (anomalies.top) {
    const { count, top } = anomalies;
    drafts.push({
      type: 'alert',
      priority: anomalies.critical ? 'critical' : 'high',
      impact: 'negative',
      title: `${count} unusual expense${count === 1 ? '' : 's'} in the last 30 days`,
      description: `The most pressing: ${usd(top.amount)} in ${top.categoryName}${companyId === null ? ` at ${top.companyName}` : ''} on ${top.date}. ${top.explanation}`,
      actionItems: ['Open Anomalies and check each flagged expense', ...top.recommendations.slice(0, 2)],
    });
  }

  const year = now.getUTCFullYear();
  if (companyId !== null && (BUDGET_YEARS as readonly number[]).includes(year)) {
    const budget = await analyzeCompanyBudget(ctx, { companyId, year });
    if (budget.totalBudget > 0 && budget.variance > 0) {
      drafts.push({
        type: 'alert',
        priority: (budget.variancePercentage ?? 0) > 20 ? 'high' : 'medium',
        impact: 'negative',
        title: `${usd(budget.variance)} over the ${year} budget`,
        description: `Spent ${usd(budget.totalActual)} of a ${usd(budget.totalBudget)} budget (${budget.variancePercentage}% over).`,
        actionItems: budget.recommendations.slice(0, 3),
      });
    } else if (budget.totalBudget > 0) {
      const unused = budget.categories.filter((c) => c.budget > 0 && (c.variancePercentage ?? 0) < -50);
      drafts.push({
        type: 'optimization',
        priority: unused.length ? 'medium' : 'low',
        impact: 'positive',
        title: `Within the ${year} budget: ${usd(-budget.variance)} left`,
        description: `Spent ${usd(budget.totalActual)} of ${usd(budget.totalBudget)}${unused.length ? `; ${unused.map((c) => c.categoryName).join(', ')} used less than half of theirs` : ''}.`,
        actionItems: budget.recommendations.slice(0, 3),
      });
    }
  }
  return drafts;
}

/**
 * Computes and stores the insights of one company or (null) the group, replacing the previous
 * ones. With a language model, a narrated summary of them is added (none if the model fails).
 */
export async function generateInsights(
  ctx: ServiceContext,
  requestedCompanyId: number | null,
  now = new Date(),
  openai: OpenAiSettings | null = null,
): Promise<Insight[]> {
  requirePermission(ctx, 'analytics');
  const companyId = await scopedCompany(ctx, requestedCompanyId);
  const drafts = await draftInsights(ctx, companyId, now);
  if (openai && drafts.length) {
    const scopeName =
      companyId === null
        ? 'the whole group'
        : (await ctx.db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirstOrThrow())
            .name;
    const summary = await narrateInsights(openai, scopeName, drafts);
    if (summary)
      drafts.unshift({
        type: 'trend',
        priority: 'medium',
        impact: 'neutral',
        title: `Summary for ${scopeName}`,
        description: summary,
        actionItems: [],
        narrated: true,
      });
  }
  const generatedAt = now.toISOString();
  await inTransaction(ctx.db, async (trx) => {
    await trx
      .deleteFrom('aiInsights')
      .where('companyId', companyId === null ? 'is' : '=', companyId)
      .execute();
    if (drafts.length) {
      await trx
        .insertInto('aiInsights')
        .values(
          drafts.map((d) => ({
            ...d,
            narrated: d.narrated ?? false,
            companyId,
            actionItems: toJson(d.actionItems) as never,
            generatedAt,
          })),
        )
        .execute();
    }
  });
  return listInsights(ctx, companyId === null ? { group: true } : { companyId });
}

/** The nightly job: the group and every company. */
export async function generateAllInsights(
  job: Pick<ServiceContext, 'db' | 'runtime'>,
  now = new Date(),
  openai: OpenAiSettings | null = null,
): Promise<{ companies: number; insights: number }> {
  const { db } = job;
  const ctx: ServiceContext = { db, actor: systemActor('worker'), meta: {}, runtime: job.runtime };
  // Alerts read the stored anomalies: bring them up to date first (nothing to do if the books did not change).
  await refreshExpenseAnomalies(db, { now });
  const companies = await db.selectFrom('companies').select('id').orderBy('id').execute();
  let insights = (await generateInsights(ctx, null, now, openai)).length;
  for (const { id } of companies) insights += (await generateInsights(ctx, id, now, openai)).length;
  return { companies: companies.length, insights };
}

const PRIORITY_ORDER: Record<InsightPriority, number> = { critical: 0, high: 1, medium: 2, low: 3 };

/**
 * GET /api/ai/insights?companyId: the stored insights, most pressing first. Without a company:
 * every company's and the group's; a user limited to one company gets that company's only.
 */
export async function listInsights(
  ctx: ServiceContext,
  filter: { companyId?: number | null; group?: boolean } = {},
): Promise<Insight[]> {
  requirePermission(ctx, 'analytics');
  const scope = actorCompanyScope(ctx);
  const companyId = companyInScope(ctx, filter.companyId);
  const rows = await ctx.db
    .selectFrom('aiInsights as i')
    .leftJoin('companies as c', 'c.id', 'i.companyId')
    .select([
      'i.id',
      'i.companyId',
      'c.name as companyName',
      'i.type',
      'i.priority',
      'i.impact',
      'i.title',
      'i.description',
      'i.actionItems',
      'i.generatedAt',
      'i.narrated',
    ])
    .$if(filter.group === true && scope === null, (q) => q.where('i.companyId', 'is', null))
    .$if(filter.group !== true && companyId !== null, (q) => q.where('i.companyId', '=', companyId!))
    .$if(scope !== null, (q) => q.where('i.companyId', '=', scope!))
    .orderBy('i.generatedAt', 'desc')
    .orderBy('i.id')
    .limit(200)
    .execute();
  return rows
    .map((r) => ({
      ...r,
      actionItems: Array.isArray(r.actionItems)
        ? (r.actionItems as string[])
        : (JSON.parse(String(r.actionItems)) as string[]),
    }))
    .sort(
      (a, b) =>
        Number(b.narrated) - Number(a.narrated) ||
        PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] ||
        (a.generatedAt < b.generatedAt ? 1 : a.generatedAt > b.generatedAt ? -1 : a.id - b.id),
    );
}
