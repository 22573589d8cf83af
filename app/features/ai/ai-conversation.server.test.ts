// The chat conversation kept per sign-in session, on every test dialect: a question is stored
// with its answer, follow-ups see the context, another session sees nothing, Clear deletes it,
// it keeps the latest messages only, and ended sessions' conversations are purged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import {
  askInConversation,
  clearConversation,
  KEPT_MESSAGES,
  loadConversation,
  purgeEndedConversations,
} from './ai-conversation.server.ts';
import type { Db } from '../../platform/context.ts';
import { createSession } from '../../platform/session/sessions.server.ts';

describe.each(TEST_DIALECTS)('chat conversations on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let userId: number;
  const inSession = async () => {
    const { session } = await createSession(db, { userId, rememberMe: false });
    return userContext(db, userId, { sessionId: session.sessionId });
  };

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    userId = (await createTestUser(db, { role: 'viewer', flags: { canAccessAnalytics: true } })).id;
  });
  afterAll(() => database?.destroy());

  it('stores each question with its answer; follow-ups keep the company; another session starts empty', async () => {
    const ctx = await inSession();
    const company = (await db.selectFrom('companies').select(['id', 'name']).orderBy('id').execute())[2];
    const first = await askInConversation(ctx, null, `What did ${company.name} spend in 2026?`);
    expect(first.turns.map((t) => t.type)).toEqual(['user', 'assistant']);
    expect(first.turns[1].content).toContain(`Expenses of ${company.name} for 2026`);
    expect(first.context).toEqual({ companyId: company.id, topic: 'expenses' });
    const second = await askInConversation(ctx, null, 'And in 2025?');
    expect(second.turns[3].content).toContain(`Expenses of ${company.name} for 2025`);
    expect(second.turns[0].timestamp < second.turns[1].timestamp).toBe(true);
    expect((await loadConversation(await inSession())).turns).toEqual([]);
    await clearConversation(ctx);
    expect(await loadConversation(ctx)).toEqual({ turns: [], context: {} });
  });

  it(`keeps the latest ${KEPT_MESSAGES} messages`, async () => {
    const ctx = await inSession();
    for (let i = 0; i < KEPT_MESSAGES / 2 + 2; i++) await askInConversation(ctx, null, `question ${i}`);
    const { turns } = await loadConversation(ctx);
    expect(turns).toHaveLength(KEPT_MESSAGES);
    expect(turns[0].content).toBe('question 2');
    expect(
      Number(
        (
          await db
            .selectFrom('aiChatMessages')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('sessionId', '=', ctx.meta.sessionId!)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(KEPT_MESSAGES);
  });

  it('needs a signed-in session and the analytics permission', async () => {
    const noSession = await userContext(db, userId);
    await expect(loadConversation(noSession)).rejects.toMatchObject({ kind: 'unauthenticated' });
    const plainId = (await createTestUser(db, { role: 'viewer' })).id;
    const { session } = await createSession(db, { userId: plainId, rememberMe: false });
    await expect(
      askInConversation(await userContext(db, plainId, { sessionId: session.sessionId }), null, 'total'),
    ).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('purges the conversations of ended sessions only', async () => {
    const ended = await inSession();
    const live = await inSession();
    await askInConversation(ended, null, 'ended');
    await askInConversation(live, null, 'live');
    await db
      .updateTable('userSessions')
      .set({ isActive: false })
      .where('sessionId', '=', ended.meta.sessionId!)
      .execute();
    expect(await purgeEndedConversations(db)).toBeGreaterThanOrEqual(2);
    expect((await loadConversation(ended)).turns).toEqual([]);
    expect((await loadConversation(live)).turns.map((t) => t.content)[0]).toBe('live');
  });
});
