// The AI chat's offline mode (docs/decisions.md): without a language model it answers the
// common questions itself from the same services the screens use, within the asker's permissions
// and company scope, with the numbers it used, and says it is in offline mode. Questions it
// cannot answer get the list of what it can. POST /api/ai/chat {message, context, history} →
// {response, context}. The /api's answers are English; the screen's are in the reader's language
// (`wording`), though the questions it understands offline stay English ones.
import { z } from 'zod';
import { SUGGESTED, SUGGESTED_QUESTIONS } from './ai-chat-questions.ts';
import { analyzeCompanyBudget, BUDGET_YEARS, predictExpenses } from './ai-analytics.server.ts';
import { detectExpenseAnomalies } from './ai-anomalies.server.ts';
import { ledgerTotals } from './ai-books.server.ts';
import type { ChatAnswer, ChatContext } from './answers.ts';
import { answerWithModel, type ModelOptions, type ModelTurn } from './ai-model.server.ts';
import type { OpenAiSettings } from '../../platform/config.server.ts';
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import { fieldErrorsFromZod, invalid } from '../../platform/errors.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
import { ENGLISH, type Wording } from './wording.server.ts';

const offlineNote = (t: Translate) => t('Offline mode: answered from the books without a language model.');
/** What the offline mode answers, each with an example asked as it understands it. */
const capabilities = (t: Translate) => [
  t(
    'total expenses or revenue of a company or the group for a year, a month or the last N days ("{example}"), also for one expense category ("{category}")',
    { example: SUGGESTED.companySpend, category: SUGGESTED.categorySpend },
  ),
  t('the top expense categories ("{example}")', { example: SUGGESTED.topCategories }),
  t('budget against actual and the variance ("{example}")', { example: SUGGESTED.budget }),
  t('unusual expenses ("{example}")', { example: SUGGESTED.anomalies }),
  t('predicted expenses, also for one category ("{example}")', { example: SUGGESTED.forecast }),
];
const helpIntro = (t: Translate) => t('I can answer these questions without a language model:');
export const OFFLINE_NOTE = offlineNote(ENGLISH.t);
export const CAPABILITIES = capabilities(ENGLISH.t);
export { SUGGESTED_QUESTIONS };
export const HELP_INTRO = helpIntro(ENGLISH.t);

const SEVERITY_WORDS: Record<string, string> = {
  critical: msg('critical'),
  high: msg('high'),
  medium: msg('medium'),
  low: msg('low'),
};
const ANOMALY_TYPE_WORDS: Record<string, string> = {
  unusual_amount: msg('unusual amount'),
  duplicate: msg('duplicate'),
  new_vendor: msg('new vendor'),
};
const TREND_WORDS: Record<string, string> = {
  increasing: msg('increasing'),
  decreasing: msg('decreasing'),
  stable: msg('stable'),
};

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
export function periodOf(text: string, now: Date, wording: Wording = ENGLISH): Period {
  const { t } = wording;
  const year = now.getUTCFullYear();
  const lower = text.toLowerCase();
  const days = lower.match(/last (\d{1,3}) days?/);
  if (days) {
    const n = Math.min(3650, Number(days[1]));
    return {
      from: iso(new Date(now.getTime() - (n - 1) * 86_400_000)),
      to: iso(now),
      label: t('{count, plural, one {the last {n} day} other {the last {n} days}}', { count: n, n: String(n) }),
    };
  }
  const named = lower.match(new RegExp(`\\b(${MONTHS.join('|')})\\b(?:\\s+(\\d{4}))?`));
  if (named) {
    const month = MONTHS.indexOf(named[1]);
    const y = named[2] ? Number(named[2]) : year;
    return {
      from: `${y}-${String(month + 1).padStart(2, '0')}-01`,
      to: lastDay(y, month),
      label: t('{month} {year}', { month: wording.month(month + 1), year: String(y) }),
    };
  }
  if (/\bthis month\b/.test(lower))
    return { from: `${iso(now).slice(0, 7)}-01`, to: lastDay(year, now.getUTCMonth()), label: t('this month') };
  if (/\blast month\b/.test(lower)) {
    const d = new Date(Date.UTC(year, now.getUTCMonth() - 1, 1));
    return { from: iso(d), to: lastDay(d.getUTCFullYear(), d.getUTCMonth()), label: t('last month') };
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

const where = (t: Translate, company: { name: string } | null) => (company ? company.name : t('the group'));

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

/** Answers one message offline, in `wording`'s words. */
export async function answerOffline(
  ctx: ServiceContext,
  input: unknown,
  now = new Date(),
  wording: Wording = ENGLISH,
): Promise<ChatAnswer> {
  const { t } = wording;
  const usd = (amount: number) => wording.money(amount, 2);
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
  const period = periodOf(message, now, wording);
  const place = where(t, company);
  const reply = (topic: string, lines: string[]): ChatAnswer => ({
    response: [...lines, '', offlineNote(t)].join('\n'),
    context: { companyId, topic, mode: 'offline' },
  });

  if (topic === 'anomalies') {
    const window = ([90, 30, 14, 7] as const).find((d) => text.includes(`${d} day`)) ?? 30;
    const found = await detectExpenseAnomalies(
      ctx,
      { companyId: companyId ?? undefined, lookbackDays: window, limit: 5 },
      now,
    );
    if (found.computedAt === null)
      return reply('anomalies', [t('Anomalies are being computed for the first time. Try again in a minute.')]);
    const ago = wording.ago(found.computedAt, now.getTime());
    if (found.total === 0)
      return reply('anomalies', [
        t('No unusual expenses in {place} over the last {days} days (computed {ago}).', {
          place,
          days: String(window),
          ago,
        }),
      ]);
    return reply('anomalies', [
      t(
        '{count, plural, one {{n} unusual expense in {place} over the last {days} days (computed {ago}):} other {{n} unusual expenses in {place} over the last {days} days (computed {ago}):}}',
        { count: found.total, n: String(found.total), place, days: String(window), ago },
      ),
      ...found.anomalies.map((a) =>
        t('- {company}, {date}: {amount} in {category} ({department}), {severity} {type}; expected {expected}.', {
          company: a.companyName,
          date: wording.day(a.date),
          amount: usd(a.amount),
          category: a.categoryName,
          department: a.departmentName,
          severity: SEVERITY_WORDS[a.severity] ? t(SEVERITY_WORDS[a.severity]) : a.severity,
          type: ANOMALY_TYPE_WORDS[a.anomalyType] ? t(ANOMALY_TYPE_WORDS[a.anomalyType]) : a.anomalyType,
          expected: usd(a.expectedAmount),
        }),
      ),
    ]);
  }
  if (topic === 'predictions') {
    const months = ([12, 6, 3, 1] as const).find((m) => new RegExp(`\\b${m} months?\\b`).test(text)) ?? 3;
    const category = await categoryOf(ctx, rest, companyId);
    const predictions = (
      await predictExpenses(ctx, { companyId: companyId ?? undefined, months }, now, wording)
    ).filter((p) => category === null || p.categoryName === category);
    const subject = category ? t('{place} on {category}', { place, category }) : place;
    if (predictions.length === 0)
      return reply('predictions', [t('There are no expenses in {subject} to predict from yet.', { subject })]);
    const total = predictions.reduce((s, p) => s + p.predictedAmount, 0);
    return reply('predictions', [
      t(
        '{count, plural, one {Predicted expenses of {subject} for the next # month: {amount}.} other {Predicted expenses of {subject} for the next # months: {amount}.}}',
        { count: months, subject, amount: usd(total) },
      ),
      ...predictions.slice(0, 5).map((p) =>
        t('- {company}, {category} ({department}): {amount}, {trend}, confidence {confidence}.', {
          company: p.companyName,
          category: p.categoryName,
          department: p.departmentName,
          amount: usd(p.predictedAmount),
          trend: TREND_WORDS[p.trend] ? t(TREND_WORDS[p.trend]) : p.trend,
          confidence: wording.percent(Math.round(p.confidence * 100)),
        }),
      ),
    ]);
  }
  if (topic === 'budget') {
    if (!company)
      return reply('budget', [
        t('Which company? Budget analysis is per company, e.g. "{example}"', {
          example: 'Is Vult over budget in 2026?',
        }),
      ]);
    const year = Number(period.from.slice(0, 4));
    if (!(BUDGET_YEARS as readonly number[]).includes(year))
      return reply('budget', [t('Budget analysis covers {years}.', { years: BUDGET_YEARS.join(', ') })]);
    const analysis = await analyzeCompanyBudget(ctx, { companyId: company.id, year }, wording);
    const figures = {
      company: company.name,
      year: String(year),
      budget: usd(analysis.totalBudget),
      actual: usd(analysis.totalActual),
      variance: usd(analysis.variance),
      percent: analysis.variancePercentage === null ? '' : ` (${wording.percent(analysis.variancePercentage)})`,
    };
    return reply('budget', [
      analysis.variance > 0
        ? t(
            '{company} in {year}: budget {budget}, actual {actual}, variance {variance}{percent} — over budget.',
            figures,
          )
        : t(
            '{company} in {year}: budget {budget}, actual {actual}, variance {variance}{percent} — within budget.',
            figures,
          ),
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
    if (top.length === 0)
      return reply('categories', [t('No expenses in {place} for {period}.', { place, period: period.label })]);
    return reply('categories', [
      t('Top expense categories of {place} for {period}:', { place, period: period.label }),
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
      t(
        '{count, plural, one {Revenue of {place} for {period}: {amount} from {n} entry.} other {Revenue of {place} for {period}: {amount} from {n} entries.}}',
        { count, n: String(count), place, period: period.label, amount: usd(total) },
      ),
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
        t(
          '{count, plural, one {Expenses of {place} on {category} for {period}: {amount} across {n} expense.} other {Expenses of {place} on {category} for {period}: {amount} across {n} expenses.}}',
          { count, n: String(count), place, category, period: period.label, amount: usd(total) },
        ),
      ]);
    }
    const { total, count } = await ledgerTotals(ctx, {
      ledger: 'expenses',
      companyId,
      from: period.from,
      to: period.to,
    });
    return reply('expenses', [
      t(
        '{count, plural, one {Expenses of {place} for {period}: {amount} across {n} expense.} other {Expenses of {place} for {period}: {amount} across {n} expenses.}}',
        { count, n: String(count), place, period: period.label, amount: usd(total) },
      ),
    ]);
  }
  return reply('help', [helpIntro(t), ...capabilities(t).map((c) => `- ${c}`)]);
}

export interface ChatOptions extends Pick<ModelOptions, 'onDelta' | 'signal' | 'limits'> {
  now?: Date;
  /** The reader's words (the screen's chat); the /api answers in English. */
  wording?: Wording;
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
    const answer = await answerOffline(ctx, input, now, options.wording);
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
    { ...options, now, language: options.wording?.locale },
  );
  return {
    response,
    context: { companyId: typeof given.companyId === 'number' ? given.companyId : null, mode: 'model' },
  };
}
