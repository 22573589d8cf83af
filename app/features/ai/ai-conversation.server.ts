// The AI chat screen's conversation, kept on the server per sign-in session: the page
// needs no hidden history, a reload keeps it, and the JavaScript stream and the plain form post
// continue the same conversation. A question and its answer are stored together once answered;
// a failed question stores nothing. 'Clear' deletes it; ended sessions' conversations are purged.
import { z } from 'zod';
import { answerChat, type ChatContext, type ChatOptions } from './ai-chat.server.ts';
import { ChatFailed } from './ai-model.server.ts';
import type { OpenAiSettings } from '../../platform/config.server.ts';
import { actingUser, inTransaction, requirePermission, type Db, type ServiceContext } from '../../platform/context.ts';
import { DomainError, isDomainError, refusalLine } from '../../platform/errors.ts';
import type { Reader } from '../../platform/i18n/refusal-words.ts';

/** POST /api/ai/chat/stream's body. */
export const StreamQuestion = z.object({
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(2000, 'Message is too long (2000 characters at most)'),
});

export interface ChatTurn {
  type: 'user' | 'assistant';
  content: string;
  timestamp: string;
}

export interface Conversation {
  turns: ChatTurn[];
  context: ChatContext;
}

/** Messages kept per conversation (older ones are dropped as new ones arrive). */
export const KEPT_MESSAGES = 40;

function owner(ctx: ServiceContext): { sessionId: string; userId: number } {
  // A conversation belongs to a sign-in session: no other actor has one.
  const user = actingUser(ctx);
  if (!user || !ctx.meta.sessionId) throw new DomainError('unauthenticated');
  requirePermission(ctx, 'analytics');
  return { sessionId: ctx.meta.sessionId, userId: user.id };
}

export async function loadConversation(ctx: ServiceContext): Promise<Conversation> {
  const { sessionId, userId } = owner(ctx);
  const rows = await ctx.db
    .selectFrom('aiChatMessages')
    .select(['type', 'content', 'companyId', 'topic', 'createdAt'])
    .where('sessionId', '=', sessionId)
    .where('userId', '=', userId)
    .orderBy('id', 'desc')
    .limit(KEPT_MESSAGES)
    .execute();
  rows.reverse();
  const last = rows.at(-1);
  return {
    turns: rows.map((r) => ({ type: r.type, content: r.content, timestamp: r.createdAt })),
    context: last ? { companyId: last.companyId, ...(last.topic ? { topic: last.topic } : {}) } : {},
  };
}

/** Asks one question in the session's conversation; stores it with its answer. */
export async function askInConversation(
  ctx: ServiceContext,
  openai: OpenAiSettings | null,
  message: string,
  options: ChatOptions = {},
): Promise<Conversation> {
  const { sessionId, userId } = owner(ctx);
  const before = await loadConversation(ctx);
  const answer = await answerChat(
    ctx,
    openai,
    { message, context: before.context, history: before.turns.slice(-5) },
    options,
  );
  const asked = new Date();
  const answered = new Date(Math.max(Date.now(), asked.getTime() + 1));
  const context = { companyId: answer.context.companyId ?? null, topic: answer.context.topic ?? null };
  await inTransaction(ctx.db, async (trx) => {
    await trx
      .insertInto('aiChatMessages')
      .values([
        { sessionId, userId, type: 'user', content: message.trim(), ...context, createdAt: asked.toISOString() },
        {
          sessionId,
          userId,
          type: 'assistant',
          content: answer.response,
          ...context,
          createdAt: answered.toISOString(),
        },
      ])
      .execute();
    const keep = await trx
      .selectFrom('aiChatMessages')
      .select('id')
      .where('sessionId', '=', sessionId)
      .orderBy('id', 'desc')
      .offset(KEPT_MESSAGES - 1)
      .limit(1)
      .executeTakeFirst();
    if (keep)
      await trx.deleteFrom('aiChatMessages').where('sessionId', '=', sessionId).where('id', '<', keep.id).execute();
  });
  return loadConversation(ctx);
}

/** Why an answer failed ('Chat failed: …'), in the reader's words; the reason a service gave stays as it gave it. */
export function chatFailureText(reader: Reader, error: unknown): string {
  if (!isDomainError(error)) return reader.t('Chat failed: an unexpected error');
  // A model's failure says 'Chat failed: …' itself, in any reader's words.
  if (error instanceof ChatFailed) return refusalLine(error, reader);
  return reader.t('Chat failed: {reason}', { reason: refusalLine(error, reader) });
}

export async function clearConversation(ctx: ServiceContext): Promise<void> {
  const { sessionId, userId } = owner(ctx);
  await ctx.db.deleteFrom('aiChatMessages').where('sessionId', '=', sessionId).where('userId', '=', userId).execute();
}

/** Drops the conversations of sessions that have ended (nightly, with the insights). */
export async function purgeEndedConversations(db: Db): Promise<number> {
  const result = await db
    .deleteFrom('aiChatMessages')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('userSessions as s')
            .select('s.id')
            .whereRef('s.sessionId', '=', 'aiChatMessages.sessionId')
            .where('s.isActive', '=', true),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The AI Insights screen's chat form (intent ask): the message. */
export const ChatForm = z.object({
  message: z.string().trim().min(1, 'Message is required').max(2000, 'Message is too long (2000 characters at most)'),
});
