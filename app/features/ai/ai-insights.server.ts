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
import { ENGLISH, readerWording, type Wording } from './wording.server.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
import { LOCALES, type Locale } from '../../platform/i18n/locales.ts';
import { languagePreferences } from '../../platform/i18n/preferences.ts';
import { formatsFor } from '../../platform/i18n/formats.ts';

export type { Insight };

type Draft = Omit<Insight, 'id' | 'companyId' | 'companyName' | 'generatedAt' | 'narrated'> & { narrated?: boolean };

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
 * The insights the books support now, for one company or (null) the group, in `wording`'s words
 * (English: what the /api answers). A group insight is a group figure (the sum over every
 * company) or names the company its one series belongs to.
 */
export async function draftInsights(
  ctx: ServiceContext,
  companyId: number | null,
  now = new Date(),
  wording: Wording = ENGLISH,
): Promise<Draft[]> {
  const { t } = wording;
  const money = (amount: number) => wording.money(amount, 0);
  const filter = companyId === null ? {} : { companyId };
  const [predictions, anomalies] = await Promise.all([
    predictExpenses(ctx, { ...filter, months: 3 }, now, wording),
    seriousAnomalies(ctx, { ...filter, lookbackDays: 30 }, now, wording),
  ]);
  const drafts: Draft[] = [];

  if (predictions.length) {
    const total = predictions.reduce((s, p) => s + p.predictedAmount, 0);
    const average = predictions.reduce((s, p) => s + p.historicalAverage, 0) * 3;
    const change = average > 0 ? (total - average) / average : 0;
    drafts.push({
      type: 'forecast',
      priority: change > 0.2 ? 'high' : 'medium',
      impact: change > 0.05 ? 'negative' : change < -0.05 ? 'positive' : 'neutral',
      title: t(msg('Expenses of the next 3 months: about {amount}'), { amount: money(total) }),
      description: t(
        msg(
          'Predicted from {series} category and department series of {scope, select, group {the group} other {this company}}; {direction, select, up {up} other {down}} {change}% on the average of the months recorded.',
        ),
        {
          series: String(predictions.length),
          scope: companyId === null ? 'group' : 'company',
          direction: change >= 0 ? 'up' : 'down',
          change: String(Math.abs(Math.round(change * 100))),
        },
      ),
      actionItems: [
        t(msg('Compare the prediction with the budgets of the coming months')),
        t(msg("Open Predictions for each category's trend and confidence")),
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
    const series = (p: ExpensePrediction) => ({
      category: p.categoryName,
      department: p.departmentName,
      factor: p.factors[0],
      company: owners.get(p.categoryId),
    });
    if (rising) {
      drafts.push({
        type: 'trend',
        priority: rising.confidence >= 0.8 ? 'high' : 'medium',
        impact: 'negative',
        title: owners.has(rising.categoryId)
          ? t(msg('{category} spending is rising at {company}'), series(rising))
          : t(msg('{category} spending is rising'), series(rising)),
        description:
          whose(rising) +
          t(
            msg(
              '{category} ({department}): {factor}. About {amount} expected over the next 3 months (confidence {confidence}%).',
            ),
            {
              ...series(rising),
              amount: money(rising.predictedAmount),
              confidence: String(Math.round(rising.confidence * 100)),
            },
          ),
        actionItems: [
          t(msg('Review the largest {category} expenses of recent months'), series(rising)),
          t(msg('Check whether the rise was planned in the budget')),
        ],
      });
    }
    if (falling) {
      drafts.push({
        type: 'trend',
        priority: 'low',
        impact: 'positive',
        title: owners.has(falling.categoryId)
          ? t(msg('{category} spending is falling at {company}'), series(falling))
          : t(msg('{category} spending is falling'), series(falling)),
        description: whose(falling) + t(msg('{category} ({department}): {factor}.'), series(falling)),
        actionItems: [
          t(msg('Keep what brought the cost down')),
          t(msg('Consider moving the freed budget where spending rises')),
        ],
      });
    }
  }

  if (anomalies.top) {
    const { count, top } = anomalies;
    const where = {
      amount: money(top.amount),
      category: top.categoryName,
      company: top.companyName,
      date: wording.day(top.date),
    };
    drafts.push({
      type: 'alert',
      priority: anomalies.critical ? 'critical' : 'high',
      impact: 'negative',
      title: t(
        msg(
          '{count, plural, one {# unusual expense in the last 30 days} other {# unusual expenses in the last 30 days}}',
        ),
        { count },
      ),
      description: `${
        companyId === null
          ? t(msg('The most pressing: {amount} in {category} at {company} on {date}.'), where)
          : t(msg('The most pressing: {amount} in {category} on {date}.'), where)
      } ${top.explanation}`,
      actionItems: [
        t(msg('Open Anomalies and check each flagged expense')),
        ...top.recommendations.slice(0, 2).map((r) => t(r)),
      ],
    });
  }

  const year = now.getUTCFullYear();
  if (companyId !== null && (BUDGET_YEARS as readonly number[]).includes(year)) {
    const budget = await analyzeCompanyBudget(ctx, { companyId, year }, wording);
    const spent = { year: String(year), actual: money(budget.totalActual), budget: money(budget.totalBudget) };
    if (budget.totalBudget > 0 && budget.variance > 0) {
      drafts.push({
        type: 'alert',
        priority: (budget.variancePercentage ?? 0) > 20 ? 'high' : 'medium',
        impact: 'negative',
        title: t(msg('{amount} over the {year} budget'), { ...spent, amount: money(budget.variance) }),
        description: t(msg('Spent {actual} of a {budget} budget ({percent} over).'), {
          ...spent,
          percent: wording.percent(budget.variancePercentage ?? 0),
        }),
        actionItems: budget.recommendations.slice(0, 3),
      });
    } else if (budget.totalBudget > 0) {
      const unused = budget.categories.filter((c) => c.budget > 0 && (c.variancePercentage ?? 0) < -50);
      drafts.push({
        type: 'optimization',
        priority: unused.length ? 'medium' : 'low',
        impact: 'positive',
        title: t(msg('Within the {year} budget: {amount} left'), { ...spent, amount: money(-budget.variance) }),
        description: unused.length
          ? t(msg('Spent {actual} of {budget}; {categories} used less than half of theirs.'), {
              ...spent,
              categories: unused.map((c) => c.categoryName).join(', '),
            })
          : t(msg('Spent {actual} of {budget}.'), spent),
        actionItems: budget.recommendations.slice(0, 3),
      });
    }
  }
  return drafts;
}

/** An insight's words in the languages other than English, by language. */
type InsightTexts = Partial<Record<Locale, Pick<Insight, 'title' | 'description' | 'actionItems'>>>;

/**
 * The other languages and their wordings, in each language's usual formats: when this process
 * has the catalogs (its runtime's translator), else none (the insights are English only).
 */
function otherLanguages(ctx: ServiceContext): [Locale, Wording][] {
  const translator = ctx.runtime.translator;
  if (!translator) return [];
  return LOCALES.filter((locale) => locale !== 'en').map((locale) => {
    const preferences = languagePreferences(locale);
    return [locale, readerWording({ preferences, t: translator(locale), formats: formatsFor(preferences) })];
  });
}

/**
 * Words the drafts in every other language: the same insights drafted again in its words. A
 * language whose drafts do not line up with the English (the books changed in between) is left
 * out, and its readers see the English.
 */
async function addTranslations(
  ctx: ServiceContext,
  companyId: number | null,
  now: Date,
  drafts: (Draft & { texts?: InsightTexts })[],
): Promise<void> {
  for (const [locale, wording] of otherLanguages(ctx)) {
    const worded = await draftInsights(ctx, companyId, now, wording);
    if (worded.length !== drafts.length || worded.some((d, i) => d.type !== drafts[i].type)) continue;
    worded.forEach((d, i) => {
      drafts[i].texts = {
        ...drafts[i].texts,
        [locale]: { title: d.title, description: d.description, actionItems: d.actionItems },
      };
    });
  }
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
  const drafts: (Draft & { texts?: InsightTexts })[] = await draftInsights(ctx, companyId, now);
  await addTranslations(ctx, companyId, now, drafts);
  if (openai && drafts.length) {
    const company =
      companyId === null
        ? null
        : (await ctx.db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirstOrThrow())
            .name;
    const summary = await narrateInsights(openai, company ?? 'the whole group', drafts);
    // The model's words stay as it wrote them; the title is the product's.
    const title = (t: Translate) =>
      company === null ? t(msg('Summary for the whole group')) : t(msg('Summary for {company}'), { company });
    if (summary)
      drafts.unshift({
        type: 'trend',
        priority: 'medium',
        impact: 'neutral',
        title: title(ENGLISH.t),
        description: summary,
        actionItems: [],
        narrated: true,
        texts: Object.fromEntries(
          otherLanguages(ctx).map(([locale, wording]) => [
            locale,
            { title: title(wording.t), description: summary, actionItems: [] },
          ]),
        ),
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
          drafts.map(({ texts, ...d }) => ({
            ...d,
            texts: texts && Object.keys(texts).length ? JSON.stringify(texts) : null,
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
 * In English, or in `locale` where the job wrote that language (the AI Insights tab).
 */
export async function listInsights(
  ctx: ServiceContext,
  filter: { companyId?: number | null; group?: boolean } = {},
  locale: Locale = 'en',
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
      'i.texts',
    ])
    .$if(filter.group === true && scope === null, (q) => q.where('i.companyId', 'is', null))
    .$if(filter.group !== true && companyId !== null, (q) => q.where('i.companyId', '=', companyId!))
    .$if(scope !== null, (q) => q.where('i.companyId', '=', scope!))
    .orderBy('i.generatedAt', 'desc')
    .orderBy('i.id')
    .limit(200)
    .execute();
  return rows
    .map(({ texts, ...r }) => ({
      ...r,
      actionItems: Array.isArray(r.actionItems)
        ? (r.actionItems as string[])
        : (JSON.parse(String(r.actionItems)) as string[]),
      ...(locale !== 'en' && texts ? (JSON.parse(texts) as InsightTexts)[locale] : undefined),
    }))
    .sort(
      (a, b) =>
        Number(b.narrated) - Number(a.narrated) ||
        PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] ||
        (a.generatedAt < b.generatedAt ? 1 : a.generatedAt > b.generatedAt ? -1 : a.id - b.id),
    );
}
