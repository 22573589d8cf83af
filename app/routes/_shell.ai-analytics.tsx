// /ai-analytics (spec 3 §2.4, issue 17): AI Insights, Predictions, Anomalies, Budget Analysis and
// AI Chat. Every choice is a GET form in the URL, so each tab works without JavaScript; 'Generate
// now' and the chat are form posts. All numbers come from the books through the AI services,
// within the analytics permission and the user's company scope. Amounts in US dollars.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { AI_TABS, AiAnalyticsScreen, type AiAnalyticsData, type ChatTurn } from '../components/ai/ai-analytics-screen.tsx';
import { allow, type RouteAccess } from '../http/route-access.ts';
import { intent, loadScreen, screenAction, succeed, tabOf, type Screen } from '../http/screen.server.ts';
import { positiveIdParam } from '../lib/query.ts';
import { analyzeCompanyBudget, ANOMALY_WINDOWS, BUDGET_YEARS, detectExpenseAnomalies, PREDICTION_MONTHS, predictExpenses, SELECT_COMPANY } from '../services/ai-analytics.server.ts';
import { answerOffline } from '../services/ai-chat.server.ts';
import { generateInsights, listInsights } from '../services/ai-insights.server.ts';
import { listVisibleCompanies } from '../services/companies.server.ts';
import { isDomainError } from '../services/errors.ts';

export const meta: MetaFunction = () => [{ title: 'AI Insights · Group Finance Hub' }];


export const access: RouteAccess = [{
  methods: { GET: allow.screen, POST: { intents: { generate: allow.to('analytics'), chat: allow.to('analytics') } } },
}];

const numberParam = <T extends number>(url: URL, name: string, allowed: readonly T[], fallback: T): T => {
  const value = Number(url.searchParams.get(name));
  return (allowed as readonly number[]).includes(value) ? (value as T) : fallback;
};

/** A failure of one analysis shows on its tab (bad filters, another company's id), never a 500. */
async function attempt<T>(run: () => Promise<T>): Promise<{ result: T | null; error: string | null }> {
  try {
    return { result: await run(), error: null };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { result: null, error: error.errors?.[0]?.message ?? error.message };
  }
}

async function tabData(screen: Screen, tab: string, filters: AiAnalyticsData['filters']): Promise<Partial<AiAnalyticsData>> {
  const { ctx } = screen;
  const companyId = filters.companyId ?? undefined;
  if (tab === 'insights') return { insights: await listInsights(ctx, { companyId: filters.companyId }).catch(() => []) };
  if (tab === 'predictions') {
    const { result, error } = await attempt(() => predictExpenses(ctx, { companyId, departmentId: filters.departmentId ?? undefined, categoryId: filters.categoryId ?? undefined, months: filters.months }));
    return { predictions: result, error };
  }
  if (tab === 'anomalies') {
    const { result, error } = await attempt(() => detectExpenseAnomalies(ctx, { companyId, departmentId: filters.departmentId ?? undefined, lookbackDays: filters.lookbackDays }));
    return { anomalies: result, error };
  }
  if (tab === 'budget') {
    if (!filters.companyId) return { budget: null, error: SELECT_COMPANY };
    const { result, error } = await attempt(() => analyzeCompanyBudget(ctx, { companyId: filters.companyId, year: filters.year }));
    return { budget: result, error };
  }
  return {};
}

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async (screen) => {
    const { ctx, url } = screen;
    const tab = tabOf(url, AI_TABS.map((t) => t.key));
    const companies = await listVisibleCompanies(ctx);
    const requestedCompany = positiveIdParam(url.searchParams.get('companyId'));
    const companyId = companies.some((c) => c.id === requestedCompany) ? requestedCompany : companies.length === 1 ? companies[0].id : null;
    const [departments, categories] = await Promise.all([
      ctx.db.selectFrom('departments').select(['id', 'name']).orderBy('name').execute(),
      companyId ? ctx.db.selectFrom('expenseCategories').select(['id', 'name']).where('companyId', '=', companyId).orderBy('name').execute() : Promise.resolve([]),
    ]);
    const filters: AiAnalyticsData['filters'] = {
      companyId,
      departmentId: positiveIdParam(url.searchParams.get('departmentId')),
      categoryId: positiveIdParam(url.searchParams.get('categoryId')),
      months: numberParam(url, 'months', PREDICTION_MONTHS, 3),
      lookbackDays: numberParam(url, 'lookbackDays', ANOMALY_WINDOWS, 30),
      year: numberParam(url, 'year', BUDGET_YEARS, (BUDGET_YEARS as readonly number[]).includes(new Date().getUTCFullYear()) ? (new Date().getUTCFullYear() as (typeof BUDGET_YEARS)[number]) : 2026),
    };
    const data: AiAnalyticsData = {
      tab, companies, departments, categories, filters,
      insights: [], predictions: null, anomalies: null, budget: null, error: null,
      ...(await tabData(screen, tab, filters)),
    };
    return json(data);
  });

const ChatForm = z.object({ message: z.string().trim().min(1, 'Message is required').max(2000), history: z.string().max(50_000).optional(), companyId: z.string().optional(), topic: z.string().max(40).optional() });

/** The transcript the page posted back (its last turns), tolerating anything malformed. */
function earlierTurns(text: string | undefined): ChatTurn[] {
  try {
    const parsed = JSON.parse(text ?? '[]') as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((t): t is ChatTurn => !!t && typeof t === 'object' && ((t as ChatTurn).type === 'user' || (t as ChatTurn).type === 'assistant') && typeof (t as ChatTurn).content === 'string')
      .slice(-10)
      .map((t) => ({ type: t.type, content: t.content.slice(0, 4000), timestamp: typeof t.timestamp === 'string' ? t.timestamp : new Date().toISOString() }));
  } catch {
    return [];
  }
}

export const action = (args: ActionFunctionArgs) =>
  screenAction(args, {
    generate: intent({
      failed: 'Failed to fetch insights',
      run: async (_value, screen, form) => {
        const companyId = positiveIdParam(String(form.get('companyId') ?? ''));
        const insights = await generateInsights(screen.ctx, companyId);
        return succeed(screen, { type: 'success', title: 'Analysis Complete', description: `${insights.length} insight${insights.length === 1 ? '' : 's'} generated` }, { to: `/ai-analytics?tab=insights${companyId ? `&companyId=${companyId}` : ''}` });
      },
    }),
    chat: intent({
      schema: ChatForm,
      invalid: 'Chat failed: Message is required',
      failed: 'Chat failed',
      prefix: true,
      run: async ({ message, history, companyId, topic }, screen) => {
        const before = earlierTurns(history);
        const context = { companyId: positiveIdParam(companyId ?? '') ?? undefined, topic };
        const answer = await answerOffline(screen.ctx, { message, context, history: before.slice(-5) });
        const now = new Date().toISOString();
        const turns: ChatTurn[] = [...before, { type: 'user', content: message, timestamp: now }, { type: 'assistant', content: answer.response, timestamp: now }];
        return json({ intent: 'chat' as const, turns, context: answer.context });
      },
    }),
  });

export default function AiAnalyticsPage() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as { intent?: string; turns?: ChatTurn[]; context?: { companyId?: number | null; topic?: string } } | undefined;
  return <AiAnalyticsScreen data={data as unknown as AiAnalyticsData} chat={answer?.intent === 'chat' && answer.turns ? { turns: answer.turns, context: answer.context ?? {} } : null} failure={answer as never} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
