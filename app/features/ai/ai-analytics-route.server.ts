// The /ai-analytics route's server half: AI Insights, Predictions, Anomalies, Budget Analysis and
// AI Chat. Every choice is a GET form in the URL, so each tab works without JavaScript; 'Generate
// now', the chat and Clear are form posts (the conversation is kept on the server per session;
// with JavaScript the chat streams from /api/ai/chat/stream instead). All numbers come from the
// books through the AI services, within the analytics permission and the user's company scope.
// Amounts in US dollars. Each analysis (the Predictions and Budget Analysis tabs, Generate now, a
// chat question) counts against the user's rate limits and runs one at a time per user: a second
// one while the first runs answers 429 and says so on the page. The Anomalies tab reads what the
// expense-anomalies job stored, with the time it was computed. Long results come a page at a
// time, ranked, with a 'Show more' link (?offset=) that needs no JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { analysisFilterChoices } from './analysis-filters.server.ts';
import { AI_TABS, type AiAnalyticsData, type PredictionRow } from './ai-analytics-screen.tsx';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { intent } from '../../platform/screen/intent.ts';
import {
  countScreenRequest,
  loadScreen,
  screenAction,
  succeed,
  tabOf,
  type Screen,
} from '../../platform/screen/screen.server.ts';
import { noteRetryAfter } from '../../platform/http/rate-limit.server.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import type { Toast } from '../../platform/lib/toast.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
import { requestI18n, type RequestI18n } from '../shell/index.server.ts';
import { asReader, readerWords, type Reader } from '../../platform/i18n/refusal-words.ts';
import { ChatFailed } from './ai-model.server.ts';
import { readerWording } from './wording.server.ts';
import {
  analyzeCompanyBudget,
  ANOMALY_WINDOWS,
  BUDGET_YEARS,
  PREDICTION_MONTHS,
  predictExpenses,
  SELECT_COMPANY,
  type ExpensePrediction,
} from './ai-analytics.server.ts';
import { ANOMALIES_COMPUTING, dailyExpenses, detectExpenseAnomalies, type AnomalyDay } from './ai-anomalies.server.ts';
import {
  askInConversation,
  chatFailureText,
  ChatForm,
  clearConversation,
  loadConversation,
} from './ai-conversation.server.ts';
import { generateInsights, listInsights } from './ai-insights.server.ts';
import { listVisibleCompanies } from '../../platform/companies.server.ts';
import { DomainError, isDomainError } from '../../platform/errors.ts';
import { ANALYSIS_RUNNING, oneAnalysisAtATime } from './analysis-limit.server.ts';
import { offsetParam } from '../../platform/lib/paging.ts';

const numberParam = <T extends number>(url: URL, name: string, allowed: readonly T[], fallback: T): T => {
  const value = Number(url.searchParams.get(name));
  return (allowed as readonly number[]).includes(value) ? (value as T) : fallback;
};

/** The refusals the services word in English that this screen shows, in the reader's words. */
const REFUSALS: Record<string, string> = {
  [ANALYSIS_RUNNING]: msg('An analysis is already running. Try again in a few seconds.'),
  [SELECT_COMPANY]: msg('Please select a company for budget analysis'),
  [ANOMALIES_COMPUTING]: msg('Anomalies are being computed for the first time. Try again in a minute.'),
};
/**
 * A service's refusal in the reader's words: a model's failure with its reason, one the screen
 * knows by its English, else its own words (refusal-words.ts).
 */
function refusalText(reader: Reader, refusal: DomainError | string): string {
  if (typeof refusal === 'string') return REFUSALS[refusal] ? reader.t(REFUSALS[refusal]) : reader.t(refusal);
  if (refusal instanceof ChatFailed) return chatFailureText(reader, refusal);
  const first = refusal.errors?.[0];
  const english = first?.message ?? refusal.message;
  if (REFUSALS[english]) return reader.t(REFUSALS[english]);
  return first ? readerWords(first, first.message, reader) : readerWords(refusal, refusal.message, reader);
}

/**
 * One analysis of the user's (counted, one at a time): a failure shows on its tab (bad filters,
 * another company's id, another analysis still running), never a 500; `retryAfter` when refused.
 */
async function attempt<T>(
  screen: Screen,
  run: () => Promise<T>,
): Promise<{ result: T | null; error: string | null; retryAfter?: number }> {
  await countScreenRequest(screen);
  try {
    return { result: await oneAnalysisAtATime(screen.ctx, run), error: null };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return {
      result: null,
      error: refusalText(asReader(requestI18n(screen.request, screen.auth)), error),
      retryAfter: error.kind === 'rateLimited' ? error.retryAfter : undefined,
    };
  }
}

/** Rows of a long result per page ('Show more' moves to the next): what keeps a page well under 60 KB with its chart. */
const PREDICTION_PAGE = 20;
const ANOMALY_PAGE = 15;

/** A prediction's row: what the table shows (only the chart's prediction keeps its monthly series). */
const rowOf = ({ history: _h, forecast: _f, months: _m, ...row }: ExpensePrediction): PredictionRow => row;
/** The chart's prediction with its last CHART_HISTORY months of history: enough to see the trend, and the page stays small. */
const CHART_HISTORY = 12;
const forChart = (p: ExpensePrediction | undefined): ExpensePrediction | null =>
  p ? { ...p, history: p.history.slice(-CHART_HISTORY) } : null;

/** Longer than a month, the chart's points are weeks (from the window's first day): 13 for 90 days, so the page stays small. */
function byWeekBeyondAMonth(days: AnomalyDay[]): AnomalyDay[] {
  if (days.length <= 31) return days;
  const weeks: AnomalyDay[] = [];
  for (let i = 0; i < days.length; i += 7) {
    const week = days.slice(i, i + 7);
    const flagged = week.filter((d) => d.flagged !== null).map((d) => d.flagged!);
    weeks.push({
      date: week[0].date,
      amount: Math.round(week.reduce((s, d) => s + d.amount * 100, 0)) / 100,
      flagged: flagged.length ? Math.max(...flagged) : null,
    });
  }
  return weeks;
}

/** After an Analyze (run=1): 'Analysis Complete' with what was found, or the failure toast (`failed`: its words). */
function analysisToast(
  t: Translate,
  run: boolean,
  failed: (error: string) => string,
  error: string | null,
  done: string,
): Toast | null {
  if (!run) return null;
  return error
    ? { type: 'error', title: t('Error'), description: failed(error) }
    : { type: 'success', title: t('Analysis Complete'), description: done };
}

async function tabData(
  screen: Screen,
  tab: string,
  filters: AiAnalyticsData['filters'],
): Promise<Partial<AiAnalyticsData> & { retryAfter?: number }> {
  const { ctx, url } = screen;
  const run = url.searchParams.get('run') === '1';
  const companyId = filters.companyId ?? undefined;
  const i18n = requestI18n(screen.request, screen.auth);
  const { t } = i18n;
  const wording = readerWording(i18n);
  if (tab === 'insights')
    return {
      insights: await listInsights(ctx, { companyId: filters.companyId }, i18n.preferences.locale).catch(() => []),
    };
  if (tab === 'predictions') {
    const { result, error, retryAfter } = await attempt(screen, () =>
      predictExpenses(
        ctx,
        {
          companyId,
          departmentId: filters.departmentId ?? undefined,
          categoryId: filters.categoryId ?? undefined,
          months: filters.months,
        },
        new Date(),
        wording,
      ),
    );
    // Ranked by predicted amount: one page of rows, and the monthly series of the first alone (the chart's).
    const offset = offsetParam(url, PREDICTION_PAGE);
    const predictions = result?.slice(offset, offset + PREDICTION_PAGE).map(rowOf) ?? null;
    return {
      predictions,
      predictionChart: forChart(result?.[0]),
      page: { offset, size: PREDICTION_PAGE, total: result?.length ?? 0 },
      error,
      retryAfter,
      toast: analysisToast(
        t,
        run,
        (reason) => t('Failed to predict expenses: {error}', { error: reason }),
        error,
        t('{count, plural, one {{n} prediction generated} other {{n} predictions generated}}', {
          count: result?.length ?? 0,
          n: String(result?.length ?? 0),
        }),
      ),
    };
  }
  if (tab === 'anomalies') {
    const offset = offsetParam(url, ANOMALY_PAGE);
    const request = {
      companyId,
      departmentId: filters.departmentId ?? undefined,
      lookbackDays: filters.lookbackDays,
      limit: ANOMALY_PAGE,
      offset,
    };
    try {
      const found = await detectExpenseAnomalies(ctx, request, undefined, wording);
      const daily = found.total ? byWeekBeyondAMonth(await dailyExpenses(ctx, request)) : null;
      const computed =
        found.computedAt === null
          ? null
          : { ago: wording.ago(found.computedAt, Date.now()), at: found.computedAt, stale: found.stale };
      // The page's rows without their advice: the screen words it from the type (recommendationsFor).
      const anomalies =
        found.computedAt === null ? null : found.anomalies.map(({ recommendations: _r, companyId: _c, ...a }) => a);
      return {
        anomalies,
        daily,
        computed,
        computing: found.computedAt === null,
        page: { offset, size: ANOMALY_PAGE, total: found.total },
        error: null,
        toast:
          run && computed
            ? {
                type: 'success',
                title: t('Analysis Complete'),
                description: t('{count, plural, one {{n} anomaly detected} other {{n} anomalies detected}}', {
                  count: found.total,
                  n: String(found.total),
                }),
              }
            : null,
      };
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const message = refusalText(asReader(i18n), error);
      return {
        anomalies: null,
        error: message,
        toast: analysisToast(
          t,
          run,
          (reason) => t('Failed to detect anomalies: {error}', { error: reason }),
          message,
          '',
        ),
      };
    }
  }
  if (tab === 'budget') {
    if (!filters.companyId)
      return {
        budget: null,
        error: refusalText(asReader(i18n), SELECT_COMPANY),
        toast: run
          ? { type: 'error', title: t('Error'), description: refusalText(asReader(i18n), SELECT_COMPANY) }
          : null,
      };
    const { result, error, retryAfter } = await attempt(screen, () =>
      analyzeCompanyBudget(ctx, { companyId: filters.companyId, year: filters.year }, wording),
    );
    return {
      budget: result,
      error,
      retryAfter,
      toast: analysisToast(
        t,
        run,
        (reason) => t('Failed to analyze budget: {error}', { error: reason }),
        error,
        t('Budget performance analysis ready'),
      ),
    };
  }
  if (tab === 'chat')
    return { conversation: await loadConversation(ctx), cleared: url.searchParams.get('cleared') === '1' };
  return {};
}

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async (screen) => {
    const { ctx, url } = screen;
    const tab = tabOf(
      url,
      AI_TABS.map((t) => t.key),
    );
    const companies = await listVisibleCompanies(ctx);
    const requestedCompany = positiveIdParam(url.searchParams.get('companyId'));
    const companyId = companies.some((c) => c.id === requestedCompany)
      ? requestedCompany
      : companies.length === 1
        ? companies[0].id
        : null;
    const { departments, categories } = await analysisFilterChoices(ctx, companyId);
    const filters: AiAnalyticsData['filters'] = {
      companyId,
      departmentId: positiveIdParam(url.searchParams.get('departmentId')),
      categoryId: positiveIdParam(url.searchParams.get('categoryId')),
      months: numberParam(url, 'months', PREDICTION_MONTHS, 3),
      lookbackDays: numberParam(url, 'lookbackDays', ANOMALY_WINDOWS, 30),
      year: numberParam(
        url,
        'year',
        BUDGET_YEARS,
        (BUDGET_YEARS as readonly number[]).includes(new Date().getUTCFullYear())
          ? (new Date().getUTCFullYear() as (typeof BUDGET_YEARS)[number])
          : 2026,
      ),
    };
    const { retryAfter, ...found } = await tabData(screen, tab, filters);
    const data: AiAnalyticsData = {
      tab,
      companies,
      departments,
      categories,
      filters,
      insights: [],
      predictions: null,
      predictionChart: null,
      anomalies: null,
      computed: null,
      computing: false,
      page: null,
      budget: null,
      daily: null,
      error: null,
      toast: null,
      conversation: null,
      cleared: false,
      mode: screen.context.config.openai ? 'model' : 'offline',
      ...found,
    };
    if (!retryAfter) return json(data);
    noteRetryAfter(screen.context, retryAfter);
    return json(data, { status: 429, headers: { 'Retry-After': String(retryAfter) } });
  });

/** Runs an intent, the refusals the screen knows in the reader's words. */
async function translatingRefusals<T>(i18n: RequestI18n, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const message = refusalText(asReader(i18n), error);
    if (message === error.message) throw error;
    throw new DomainError(error.kind, message, { errors: error.errors, retryAfter: error.retryAfter });
  }
}

const intents = {
  generate: intent({
    allow: allow.to('analytics'),
    failed: msg('Failed to fetch insights'),
    run: async (_value, screen, form) => {
      const i18n = requestI18n(screen.request, screen.auth);
      const { t } = i18n;
      const companyId = positiveIdParam(String(form.get('companyId') ?? ''));
      const insights = await translatingRefusals(i18n, () =>
        oneAnalysisAtATime(screen.ctx, () =>
          generateInsights(screen.ctx, companyId, new Date(), screen.context.config.openai),
        ),
      );
      return succeed(
        screen,
        {
          type: 'success',
          title: t('Analysis Complete'),
          description: t('{count, plural, one {{n} insight generated} other {{n} insights generated}}', {
            count: insights.length,
            n: String(insights.length),
          }),
        },
        { to: `/ai-analytics?tab=insights${companyId ? `&companyId=${companyId}` : ''}` },
      );
    },
  }),
  chat: intent({
    allow: allow.to('analytics'),
    schema: ChatForm,
    invalid: msg('Chat failed: Message is required'),
    failed: msg('Chat failed'),
    run: async ({ message }, screen) => {
      const i18n = requestI18n(screen.request, screen.auth);
      await translatingRefusals(i18n, () =>
        oneAnalysisAtATime(screen.ctx, () =>
          askInConversation(screen.ctx, screen.context.config.openai, message, {
            signal: screen.request.signal,
            wording: readerWording(i18n),
          }),
        ),
      );
      return redirect('/ai-analytics?tab=chat');
    },
  }),
  clear: intent({
    allow: allow.to('analytics'),
    run: async (_value, screen) => {
      await clearConversation(screen.ctx);
      return redirect('/ai-analytics?tab=chat&cleared=1');
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) => screenAction(args, intents, { i18n: requestI18n });
