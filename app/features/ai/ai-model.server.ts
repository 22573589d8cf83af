// The language-model layer of the AI chat (docs/decisions.md), on only with OPENAI_API_KEY.
// The model narrates and answers; every number it uses comes from a tool call run with the
// asking user's permissions and company scope (ai-tools.server.ts). Each request has hard caps:
// tool calls, rounds, completion tokens per round, total tokens and wall time. Anything that
// goes wrong (the service, a cap, the clock) is one 'Chat failed: …' error.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { OpenAiSettings } from '../../platform/config.server.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import { runTool, TOOL_DEFINITIONS } from './ai-tools.server.ts';
import { visibleCompanies } from './ai-books.server.ts';
import type { Locale } from '../../platform/i18n/locales.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { marked, phrased, readerWords, type PhraseValue } from '../../platform/i18n/refusal-words.ts';
import { MODEL_LANGUAGE } from './wording.server.ts';

export interface ModelLimits {
  /** Tool calls run per request; further calls are refused and the model must answer. */
  toolCalls: number;
  /** Model round trips per request. */
  rounds: number;
  /** max_completion_tokens of each round. */
  completionTokens: number;
  /** Prompt and completion tokens of all rounds together. */
  totalTokens: number;
  /** Wall time of the whole request. */
  timeMs: number;
}

export const MODEL_LIMITS: ModelLimits = {
  toolCalls: 8,
  rounds: 6,
  completionTokens: 800,
  totalTokens: 24_000,
  timeMs: 45_000,
};

export interface ModelTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface ModelOptions {
  now?: Date;
  /** Each piece of the answer as it arrives. */
  onDelta?: (text: string) => void;
  limits?: Partial<ModelLimits>;
  /** The client went away: stop. */
  signal?: AbortSignal;
  /** The reader's language (the screen's chat): the answer is written in it. */
  language?: Locale;
}

export class ChatFailed extends DomainError {
  constructor(reason: string) {
    super('unavailable', `Chat failed: ${reason}`);
  }
}

/** A chat failure whose reason is a message with values, marked with its text in any reader's words. */
function chatFailed(reason: string, values?: Record<string, PhraseValue>): ChatFailed {
  const said = phrased((english) => ({ message: english }), reason, values);
  return marked(new ChatFailed(said.message), (reader) =>
    reader.t(msg('Chat failed: {reason}'), { reason: readerWords(said, said.message, reader) }),
  );
}

function clientFor(settings: OpenAiSettings): OpenAI {
  return new OpenAI({ apiKey: settings.apiKey, baseURL: settings.baseUrl, maxRetries: 0 });
}

async function systemPrompt(ctx: ServiceContext, now: Date, language: Locale = 'en'): Promise<string> {
  const companies = await visibleCompanies(ctx);
  const answerIn = MODEL_LANGUAGE[language];
  return [
    'You are the finance assistant of Group Finance Hub, for the finance staff of a group of companies.',
    'Answer only from tool results: never invent or estimate a number the tools did not give. Name the period and company of every figure.',
    'Amounts are US dollars; write them like $12,345.67. Be brief: a few sentences or a short list.',
    `Today is ${now.toISOString().slice(0, 10)}.`,
    `Companies this user may see: ${companies.map((c) => `${c.name} (id ${c.id}, ${c.type})`).join('; ') || 'none'}.`,
    'If a tool answers with an error, say what could not be read; do not retry the same call.',
    ...(answerIn
      ? [
          `Answer in ${answerIn}, whatever the language of the question or the tool results, and write the amounts (still US dollars) and dates as ${answerIn} readers write them; keep company and category names as written.`,
        ]
      : []),
  ].join('\n');
}

/** The model's reading of a failure, as a 'Chat failed: …' error (never the key or the request). */
function failureOf(error: unknown, timedOut: boolean): ChatFailed {
  if (timedOut || error instanceof APIConnectionTimeoutError)
    return chatFailed(msg('the language model did not answer in time'));
  if (error instanceof APIUserAbortError) return chatFailed(msg('the request was cancelled'));
  if (error instanceof APIConnectionError) return chatFailed(msg('the language model service could not be reached'));
  if (error instanceof APIError) {
    // What the service said stays as it said it.
    const detail =
      typeof error.error === 'object' && error.error && 'message' in error.error
        ? String((error.error as { message: unknown }).message).slice(0, 200)
        : '';
    const status = String(error.status ?? '');
    if (!status) return chatFailed(msg('the language model service answered an error'));
    return detail
      ? chatFailed(msg('the language model service answered {status} ({detail})'), { status, detail })
      : chatFailed(msg('the language model service answered {status}'), { status });
  }
  if (error instanceof ChatFailed) return error;
  return chatFailed(msg('an unexpected error'));
}

/**
 * Answers one message with the language model and the tools. `history`: the conversation's
 * earlier messages (the last five are sent).
 */
export async function answerWithModel(
  ctx: ServiceContext,
  settings: OpenAiSettings,
  input: { message: string; history: ModelTurn[] },
  options: ModelOptions = {},
): Promise<{ response: string; toolCalls: number; tokens: number }> {
  const limits = { ...MODEL_LIMITS, ...options.limits };
  const now = options.now ?? new Date();
  const deadline = AbortSignal.timeout(limits.timeMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const client = clientFor(settings);
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: await systemPrompt(ctx, now, options.language) },
    ...input.history.slice(-5).map((turn) => ({ role: turn.role, content: turn.content })),
    { role: 'user', content: input.message },
  ];
  let toolCalls = 0;
  let tokens = 0;
  try {
    for (let round = 0; round < limits.rounds; round++) {
      const toolsAllowed = toolCalls < limits.toolCalls && round < limits.rounds - 1;
      const stream = await client.chat.completions.create(
        {
          model: settings.model,
          messages,
          tools: TOOL_DEFINITIONS,
          tool_choice: toolsAllowed ? 'auto' : 'none',
          max_completion_tokens: limits.completionTokens,
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal },
      );
      let content = '';
      const calls: ChatCompletionMessageFunctionToolCall[] = [];
      for await (const chunk of stream) {
        if (chunk.usage) tokens += chunk.usage.total_tokens ?? 0;
        const delta = chunk.choices[0]?.delta;
        if (delta?.content) {
          content += delta.content;
          options.onDelta?.(delta.content);
        }
        for (const part of delta?.tool_calls ?? []) {
          const call = (calls[part.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
          if (part.id) call.id = part.id;
          if (part.function?.name) call.function.name += part.function.name;
          if (part.function?.arguments) call.function.arguments += part.function.arguments;
        }
      }
      if (tokens > limits.totalTokens)
        throw chatFailed(msg('the answer needed more than {tokens} tokens'), { tokens: limits.totalTokens });
      const requested = calls.filter(Boolean);
      if (requested.length === 0) {
        if (!content.trim()) throw chatFailed(msg('the language model gave an empty answer'));
        return { response: content.trim(), toolCalls, tokens };
      }
      messages.push({ role: 'assistant', content: content || null, tool_calls: requested });
      for (const call of requested) {
        const allowed = toolCalls < limits.toolCalls;
        if (allowed) toolCalls++;
        const result = allowed
          ? await runTool(ctx, call.function.name, call.function.arguments, now)
          : JSON.stringify({
              error: `The limit of ${limits.toolCalls} tool calls per question is reached: answer with what you have.`,
            });
        messages.push({ role: 'tool', tool_call_id: call.id, content: result });
      }
    }
    throw chatFailed(msg('no answer after {rounds} rounds with the language model'), { rounds: limits.rounds });
  } catch (error) {
    if (error instanceof DomainError && !(error instanceof ChatFailed)) throw error;
    if (
      !(error instanceof ChatFailed) &&
      !(error instanceof APIError) &&
      !(error instanceof APIUserAbortError) &&
      !(error instanceof APIConnectionError) &&
      !deadline.aborted
    )
      throw error;
    throw failureOf(error, deadline.aborted);
  }
}

/**
 * A short narrated summary of a set of computed insights, or null when the model fails (the
 * insights stand on their own; the narration only retells them).
 */
export async function narrateInsights(
  settings: OpenAiSettings,
  scopeName: string,
  insights: { title: string; description: string }[],
  options: { timeMs?: number } = {},
): Promise<string | null> {
  if (insights.length === 0) return null;
  try {
    const completion = await clientFor(settings).chat.completions.create(
      {
        model: settings.model,
        messages: [
          {
            role: 'system',
            content:
              'You summarise computed finance insights for busy finance staff in at most three sentences. Use only the numbers given; amounts are US dollars.',
          },
          {
            role: 'user',
            content: `Insights for ${scopeName}:\n${insights.map((i) => `- ${i.title}: ${i.description}`).join('\n')}`,
          },
        ],
        max_completion_tokens: 300,
      },
      { signal: AbortSignal.timeout(options.timeMs ?? 30_000) },
    );
    const text = completion.choices[0]?.message?.content?.trim();
    return text ? text.slice(0, 2000) : null;
  } catch {
    return null;
  }
}
