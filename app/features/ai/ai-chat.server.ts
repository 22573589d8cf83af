// The AI chat's offline mode (docs/decisions.md): without a language model it answers the
// common questions itself from the same services the screens use, within the asker's permissions
// and company scope, with the numbers it used, and says it is in offline mode. Questions it
// cannot answer get the list of what it can. POST /api/ai/chat {message, context, history} →
// {response, context}.
import { z } from 'zod';
import { SUGGESTED, SUGGESTED_QUESTIONS } from './ai-chat-questions.ts';
import { formatRelativeTime } from '../../platform/lib/format.ts';
import { analyzeCompanyBudget, BUDGET_YEARS, predictExpenses } from './ai-analytics.server.ts';
import { ANOMALIES_COMPUTING, detectExpenseAnomalies } from './ai-anomalies.server.ts';
import { ledgerTotals } from './ai-books.server.ts';
import type { ChatAnswer, ChatContext } from './answers.ts';
import { answerWithModel, type ModelOptions, type ModelTurn } from './ai-model.server.ts';
import type { OpenAiSettings } from '../../platform/config.server.ts';
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import { fieldErrorsFromZod, invalid } from '../../platform/errors.ts';

export const OFFLINE_NOTE = 'Offline mode: answered from the books without a language model.';
export const CAPABILITIES = [
  `total expenses or revenue of a company or the group for a year, a month or the last N days ("${SUGGESTED.companySpend}"), also for one expense category ("${SUGGESTED.categorySpend}")`,
  `the top expense categories ("${SUGGESTED.topCategories}")`,
  `budget against actual and the variance ("${SUGGESTED.budget}")`,
  `unusual expenses ("${SUGGESTED.anomalies}")`,
  `predicted expenses, also for one category ("${SUGGESTED.forecast}")`,
];
export { SUGGESTED_QUESTIONS };
export const HELP_INTRO = 'I can answer these questions without a language model:';

export const ChatRequest = z.object({
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(2000, 'Message is too long (2000 characters at most)'),
  context: z.record(z.string(), z.unknown()).nullish(),
  history: z.array(z.unknown()).max(50).nullish(),
});

export type { ChatAnswer, ChatContext };

interface Period {
  from: string;
  to: string;
  label: string;
}

const usd = (amount: number) =>
  `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const iso = (d: Date) => d.toISOString().slice(0, 10);
const lastDay = (year: number, month: number) => iso(new Date(Date.UTC(year, month + 1, 0)));

/** The period a question names: a month and year, a year, this/last year or month, the last N days; default this year. */
export function periodOf(text: string, now: Date): Period {
  const year = now.getUTCFullYear();
  const lower = text.toLowerCase();
  const days = lower.match(/last (\d{1,3}) days?/);
  if (days) {
    const n = Math.min(3650, Number(days[1]));
    return { from: iso(new Date(now.getTime() - (n - 1) * 86_400_000)), to: iso(now), label: `the last ${n} days` };
  }
  const named = lower.match(new RegExp(`\\b(${MONTHS.join('|')})\\b(?:\\s+(\\d{4}))?`));
  if (named) {
    const month = MONTHS.indexOf(named[1]);
    const y = named[2] ? Number(named[2]) : year;
    return {
      from: `${y}-${String(month + 1).padStart(2, '0')}-01`,
      to: lastDay(y, month),
      label: `${named[1][0].toUpperCase()}${named[1].slice(1)} ${y}`,
    };
  }
  if (/\bthis month\b/.test(lower))
    return { from: `${iso(now).slice(0, 7)}-01`, to: lastDay(year, now.getUTCMonth()), label: 'this month' };
  if (/\blast month\b/.test(lower)) {
    const d = new Date(Date.UTC(year, now.getUTCMonth() - 1, 1));
    return { from: iso(d), to: lastDay(d.getUTCFullYear(), d.getUTCMonth()), label: 'last month' };
  }
  const explicit = lower.match(/\b(20\d{2})\b/);
  const y = explicit ? Number(explicit[1]) : /\blast year\b/.test(lower) ? year - 1 : year;
  return { from: `${y}-01-01`, to: `${y}-12-31`, label: String(y) };
}

/** Lower-case words of a text (a possessive 's dropped), for matching names as people write them. */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^\p{L}\p{N}&]+/u)
    .filter(Boolean);
}

/**
 * The one name a text refers to: the whole name, or a run of whole words of the text (at least 3
 * letters) that begins exactly one of the names, case-insensitive ("atlas" or "Atl" for
 * "Atlas Infrastructure"). The longest reference wins; an ambiguous one names nothing. `rest`:
 * the text without the words that named it.
 */
export function nameIn<T extends { name: string }>(
  text: string,
  candidates: readonly T[],
): { item: T; rest: string } | null {
  const words = wordsOf(text);
  const names = candidates.map((c) => ({ c, name: wordsOf(c.name).join(' ') }));
  let best: { item: T; start: number; end: number; length: number } | null = null;
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 1; end <= words.length; end++) {
      const phrase = words.slice(start, end).join(' ');
      if (phrase.length < 3) continue;
      const exact = names.filter((n) => n.name === phrase);
      const prefixed = names.filter((n) => n.name.startsWith(phrase));
      const wholeWords = prefixed.filter((n) => n.name[phrase.length] === ' ');
      const item =
        exact.length === 1
          ? exact[0].c
          : wholeWords.length === 1
            ? wholeWords[0].c
            : prefixed.length === 1
              ? prefixed[0].c
              : null;
      if (item && (!best || phrase.length > best.length)) best = { item, start, end, length: phrase.length };
    }
  }
  return best && { item: best.item, rest: [...words.slice(0, best.start), ...words.slice(best.end)].join(' ') };
}

/** The company a question names, else the conversation's, else the asker's own (scoped users always their own); `rest`: the text without the company's name. */
async function companyOf(
  ctx: ServiceContext,
  text: string,
  context: ChatContext,
): Promise<{ company: { id: number; name: string } | null; named: boolean; rest: string }> {
  const scope = actorCompanyScope(ctx);
  const companies = await ctx.db
    .selectFrom('companies')
    .select(['id', 'name'])
    .$if(scope !== null, (q) => q.where('id', '=', scope!))
    .execute();
  const named = nameIn(text, companies);
  if (named) return { company: named.item, named: true, rest: named.rest };
  const remembered = companies.find((c) => c.id === context.companyId);
  return { company: remembered ?? (scope !== null ? (companies[0] ?? null) : null), named: false, rest: text };
}

const TOPICS = ['anomalies', 'predictions', 'budget', 'categories', 'revenue', 'expenses'] as const;
type Topic = (typeof TOPICS)[number] | 'help';

/** What a message asks about, in order of precedence; null when it names nothing known. */
function topicOf(text: string): Topic | null {
  if (/anomal|unusual|suspicious|duplicate|outlier|strange/.test(text)) return 'anomalies';
  if (/predict|forecast|next \d* ?months?|projection|expect/.test(text)) return 'predictions';
  if (/budget|variance|over spend|overspen/.test(text)) return 'budget';
  if (/top|largest|biggest|most|categor/.test(text) && !/revenue/.test(text)) return 'categories';
  if (/revenue|income|earn|sales/.test(text)) return 'revenue';
  if (/total|spend|spent|expense|cost|paid/.test(text)) return 'expenses';
  return null;
}

const where = (company: { name: string } | null) => (company ? company.name : 'the group');

/** The expense category a question names (of the company asked about, within scope), as people write it. */
async function categoryOf(ctx: ServiceContext, text: string, companyId: number | null): Promise<string | null> {
  const scope = actorCompanyScope(ctx);
  const rows = await ctx.db
    .selectFrom('expenseCategories')
    .select('name')
    .distinct()
    .$if(companyId !== null, (q) => q.where('companyId', '=', companyId!))
    .$if(scope !== null, (q) => q.where('companyId', '=', scope!))
    .execute();
  return nameIn(text, rows)?.item.name ?? null;
}

/** Whether a message names a period of its own (else the default, this year, applies). */
function namesPeriod(text: string): boolean {
  return new RegExp(
    `\\b(20\\d{2}|${MONTHS.join('|')}|this (month|year)|last (month|year)|last \\d{1,3} days?)\\b`,
  ).test(text);
}

/** Answers one message offline. */
export async function answerOffline(ctx: ServiceContext, input: unknown, now = new Date()): Promise<ChatAnswer> {
  requirePermission(ctx, 'analytics');
  const parsed = ChatRequest.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const { message } = parsed.data;
  const given = parsed.data.context ?? {};
  const context: ChatContext = { companyId: typeof given.companyId === 'number' ? given.companyId : null };
  const text = message.toLowerCase();
  const { company, named, rest } = await companyOf(ctx, message, context);
  const companyId = company?.id ?? null;
  const previous =
    typeof given.topic === 'string' && (TOPICS as readonly string[]).includes(given.topic)
      ? (given.topic as Topic)
      : null;
  // A follow-up ('And in 2025?', 'What about Vult?') asks the previous question again for what it
  // names; anything else not understood gets the list of what the chat can answer.
  const followUp =
    previous !== null &&
    (named ||
      namesPeriod(text) ||
      /^\s*(and|what about|how about)\b/.test(text) ||
      (await categoryOf(ctx, rest, companyId)) !== null);
  const topic = topicOf(text) ?? (followUp ? previous : 'help');
  const period = periodOf(message, now);
  const reply = (topic: string, lines: string[]): ChatAnswer => ({
    response: [...lines, '', OFFLINE_NOTE].join('\n'),
    context: { companyId, topic, mode: 'offline' },
  });

  if (topic === 'anomalies') {
    const window = ([90, 30, 14, 7] as const).find((d) => text.includes(`${d} day`)) ?? 30;
    const found = await detectExpenseAnomalies(
      ctx,
      { companyId: companyId ?? undefined, lookbackDays: window, limit: 5 },
      now,
    );
    if (found.computedAt === null) return reply('anomalies', [ANOMALIES_COMPUTING]);
    const computed = `(computed ${formatRelativeTime(found.computedAt, now.getTime()).toLowerCase()})`;
    if (found.total === 0)
      return reply('anomalies', [`No unusual expenses in ${where(company)} over the last ${window} days ${computed}.`]);
    return reply('anomalies', [
      `${found.total} unusual expense${found.total === 1 ? '' : 's'} in ${where(company)} over the last ${window} days ${computed}:`,
      ...found.anomalies.map(
        (a) =>
          `- ${a.companyName}, ${a.date}: ${usd(a.amount)} in ${a.categoryName} (${a.departmentName}), ${a.severity} ${a.anomalyType.replace('_', ' ')}; expected ${usd(a.expectedAmount)}.`,
      ),
    ]);
  }
  if (topic === 'predictions') {
    const months = ([12, 6, 3, 1] as const).find((m) => new RegExp(`\\b${m} months?\\b`).test(text)) ?? 3;
    const category = await categoryOf(ctx, rest, companyId);
    const predictions = (await predictExpenses(ctx, { companyId: companyId ?? undefined, months }, now)).filter(
      (p) => category === null || p.categoryName === category,
    );
    const subject = `${where(company)}${category ? ` on ${category}` : ''}`;
    if (predictions.length === 0)
      return reply('predictions', [`There are no expenses in ${subject} to predict from yet.`]);
    const total = predictions.reduce((s, p) => s + p.predictedAmount, 0);
    return reply('predictions', [
      `Predicted expenses of ${subject} for the next ${months} month${months === 1 ? '' : 's'}: ${usd(total)}.`,
      ...predictions
        .slice(0, 5)
        .map(
          (p) =>
            `- ${p.companyName}, ${p.categoryName} (${p.departmentName}): ${usd(p.predictedAmount)}, ${p.trend}, confidence ${Math.round(p.confidence * 100)}%.`,
        ),
    ]);
  }
  if (topic === 'budget') {
    if (!company)
      return reply('budget', ['Which company? Budget analysis is per company, e.g. "Is Vult over budget in 2026?"']);
    const year = Number(period.from.slice(0, 4));
    if (!(BUDGET_YEARS as readonly number[]).includes(year))
      return reply('budget', [`Budget analysis covers ${BUDGET_YEARS.join(', ')}.`]);
    const analysis = await analyzeCompanyBudget(ctx, { companyId: company.id, year });
    return reply('budget', [
      `${company.name} in ${year}: budget ${usd(analysis.totalBudget)}, actual ${usd(analysis.totalActual)}, variance ${usd(analysis.variance)}${analysis.variancePercentage === null ? '' : ` (${analysis.variancePercentage}%)`} — ${analysis.variance > 0 ? 'over budget' : 'within budget'}.`,
      ...analysis.recommendations.map((r) => `- ${r}`),
    ]);
  }
  if (topic === 'categories') {
    const totals = await ledgerTotals(ctx, {
      ledger: 'expenses',
      companyId,
      from: period.from,
      to: period.to,
      groupBy: 'category',
    });
    const top = totals.groups.slice(0, 5);
    if (top.length === 0) return reply('categories', [`No expenses in ${where(company)} for ${period.label}.`]);
    return reply('categories', [
      `Top expense categories of ${where(company)} for ${period.label}:`,
      ...top.map((g, i) => `${i + 1}. ${g.label}: ${usd(g.amount)}`),
    ]);
  }
  if (topic === 'revenue') {
    const { total, count } = await ledgerTotals(ctx, {
      ledger: 'revenue',
      companyId,
      from: period.from,
      to: period.to,
    });
    return reply('revenue', [
      `Revenue of ${where(company)} for ${period.label}: ${usd(total)} from ${count} entr${count === 1 ? 'y' : 'ies'}.`,
    ]);
  }
  if (topic === 'expenses') {
    const category = await categoryOf(ctx, rest, companyId);
    if (category) {
      const { total, count } = await ledgerTotals(ctx, {
        ledger: 'expenses',
        companyId,
        from: period.from,
        to: period.to,
        category,
      });
      return reply('expenses', [
        `Expenses of ${where(company)} on ${category} for ${period.label}: ${usd(total)} across ${count} expense${count === 1 ? '' : 's'}.`,
      ]);
    }
    const { total, count } = await ledgerTotals(ctx, {
      ledger: 'expenses',
      companyId,
      from: period.from,
      to: period.to,
    });
    return reply('expenses', [
      `Expenses of ${where(company)} for ${period.label}: ${usd(total)} across ${count} expense${count === 1 ? '' : 's'}.`,
    ]);
  }
  return reply('help', [HELP_INTRO, ...CAPABILITIES.map((c) => `- ${c}`)]);
}

export interface ChatOptions extends Pick<ModelOptions, 'onDelta' | 'signal' | 'limits'> {
  now?: Date;
}

/** The earlier messages a request carries, as model turns (chat messages or role/content pairs; anything else skipped). */
export function historyTurns(history: unknown[] | null | undefined): ModelTurn[] {
  return (history ?? []).flatMap((item) => {
    if (!item || typeof item !== 'object') return [];
    const { type, role, content } = item as { type?: unknown; role?: unknown; content?: unknown };
    const who = type ?? role;
    if ((who !== 'user' && who !== 'assistant') || typeof content !== 'string' || !content.trim()) return [];
    return [{ role: who, content: content.slice(0, 4000) }];
  });
}

/**
 * POST /api/ai/chat and the screen's chat: the language model with its tools when configured,
 * else the offline answers. `onDelta` receives the answer as it is written.
 */
export async function answerChat(
  ctx: ServiceContext,
  openai: OpenAiSettings | null,
  input: unknown,
  options: ChatOptions = {},
): Promise<ChatAnswer> {
  const now = options.now ?? new Date();
  if (!openai) {
    const answer = await answerOffline(ctx, input, now);
    for (const line of answer.response.split(/(?<=\n)/)) options.onDelta?.(line);
    return answer;
  }
  requirePermission(ctx, 'analytics');
  const parsed = ChatRequest.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const given = parsed.data.context ?? {};
  const { response } = await answerWithModel(
    ctx,
    openai,
    { message: parsed.data.message, history: historyTurns(parsed.data.history) },
    { ...options, now },
  );
  return {
    response,
    context: { companyId: typeof given.companyId === 'number' ? given.companyId : null, mode: 'model' },
  };
}
