// The language-model layer against a local fake OpenAI-compatible server, on every test dialect:
// the tool-call round trip reads the books with the asker's scope, the caps hold, and every
// failure reads 'Chat failed: …'.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { userContext } from '../../../test/context.ts';
import { useAnalyticsDatabase } from '../../../test/analytics-fixture.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { startFakeOpenAi, toolResults, type FakeOpenAi } from '../../../test/support/fake-openai.ts';
import { createTestUser } from '../../../test/users.ts';
import { answerChat } from './ai-chat.server.ts';
import { answerWithModel, narrateInsights } from './ai-model.server.ts';
import type { OpenAiSettings } from '../../platform/config.server.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { formatsFor } from '../../platform/i18n/formats.ts';
import { preferencesOf } from '../../platform/i18n/preferences.ts';
import { DEFAULT_SETTINGS } from '../../platform/session/user-settings-row.ts';
import { ENGLISH, readerWording } from './wording.server.ts';

const DEFAULT_PREFERENCES = preferencesOf(DEFAULT_SETTINGS);

const NOW = new Date('2026-11-20T12:00:00Z');
const KEY = 'sk-fake-secret-key';

describe.each(TEST_DIALECTS)('chat with the language model on %s', (dialect) => {
  const f = useAnalyticsDatabase(dialect);
  let db: Db;
  let fake: FakeOpenAi;
  let settings: OpenAiSettings;
  let analyst: ServiceContext;
  let scoped: ServiceContext;
  let a: { id: number; name: string };
  let b: { id: number; name: string };

  beforeAll(async () => {
    ({ db, analyst, scoped, a, b } = f);
    fake = await startFakeOpenAi();
    settings = { apiKey: KEY, baseUrl: fake.url, model: 'fake-model' };
    const { departmentId } = f;
    const category = async (companyId: number, name: string) =>
      (
        await db
          .insertInto('expenseCategories')
          .values({ companyId, departmentId, name })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const travel = await category(a.id, `Model Travel ${dialect}`);
    const other = await category(b.id, `Model Other ${dialect}`);
    const e = (companyId: number, categoryId: number, amountCents: number, expenseDate: string) => ({
      companyId,
      departmentId,
      categoryId,
      amountCents,
      expenseDate,
      description: 'model',
      vendor: 'V',
    });
    await db
      .insertInto('actualExpenses')
      .values([
        e(a.id, travel, 300_000, '2026-03-05'),
        e(a.id, travel, 200_025, '2026-04-05'),
        e(b.id, other, 777_700, '2026-03-01'),
      ])
      .execute();
  });
  afterEach(() => {
    fake.requests.length = 0;
  });
  afterAll(() => fake?.close());

  it("answers through tool calls: the model is sent the books' numbers and its answer streams back", async () => {
    fake.script = (request, index) => {
      if (index === 0) return { toolCalls: [{ name: 'list_companies', arguments: {} }] };
      if (index === 1)
        return {
          toolCalls: [
            {
              name: 'ledger_totals',
              arguments: {
                ledger: 'expenses',
                companyId: a.id,
                from: '2026-01-01',
                to: '2026-12-31',
                groupBy: 'category',
              },
            },
          ],
        };
      const totals = toolResults(request).find((t) => t.name === 'ledger_totals')!.result as { total: number };
      return {
        content: `${a.name} spent $${totals.total.toLocaleString('en-US', { minimumFractionDigits: 2 })} in 2026.`,
      };
    };
    const deltas: string[] = [];
    const answer = await answerChat(
      analyst,
      settings,
      {
        message: `What did ${a.name} spend in 2026?`,
        history: [
          { type: 'user', content: 'Hello' },
          { type: 'assistant', content: 'Hi' },
        ],
      },
      { now: NOW, onDelta: (d) => deltas.push(d) },
    );

    expect(answer).toEqual({
      response: `${a.name} spent $5,000.25 in 2026.`,
      context: { companyId: null, mode: 'model' },
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(answer.response);
    expect(fake.requests).toHaveLength(3);
    const first = fake.requests[0];
    expect(first.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(first.body).toMatchObject({
      model: 'fake-model',
      stream: true,
      tool_choice: 'auto',
      max_completion_tokens: 800,
    });
    expect(first.body.tools!.map((t) => t.function.name)).toEqual([
      'list_companies',
      'ledger_totals',
      'budget_vs_actual',
      'expense_anomalies',
      'expense_predictions',
      'recent_changes',
    ]);
    expect(first.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(first.body.messages[0].content).toContain('Today is 2026-11-20');
    const totals = toolResults(fake.requests[2]).find((t) => t.name === 'ledger_totals')!.result;
    expect(totals).toMatchObject({
      total: 5000.25,
      count: 2,
      groups: [{ label: `Model Travel ${dialect}`, amount: 5000.25, count: 2 }],
    });
  });

  it('sends the last five earlier messages only', async () => {
    fake.script = () => ({ content: 'ok' });
    const history = Array.from({ length: 8 }, (_, i) => ({ type: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }));
    await answerChat(analyst, settings, { message: 'now', history }, { now: NOW });
    expect(fake.requests[0].body.messages.map((m) => m.content).slice(1)).toEqual([
      'turn 3',
      'turn 4',
      'turn 5',
      'turn 6',
      'turn 7',
      'now',
    ]);
  });

  it("asks for the answer in the screen reader's language; the /api's stays English", async () => {
    fake.script = () => ({ content: 'ok' });
    const i18n = { preferences: { locale: 'es' as const }, t: ENGLISH.t, formats: formatsFor(DEFAULT_PREFERENCES) };
    await answerChat(analyst, settings, { message: 'now' }, { now: NOW, wording: readerWording(i18n) });
    await answerChat(analyst, settings, { message: 'now' }, { now: NOW });
    const [spanish, english] = fake.requests.map((r) => String(r.body.messages[0].content));
    expect(spanish).toContain('Answer in Spanish');
    expect(english).not.toContain('Answer in');
    expect(spanish.startsWith(english)).toBe(true);
  });

  it("runs the tools with the asker's company scope: another company is refused and never reaches the model", async () => {
    fake.script = (_request, index) =>
      index === 0
        ? {
            toolCalls: [
              {
                name: 'ledger_totals',
                arguments: { ledger: 'expenses', companyId: a.id, from: '2026-01-01', to: '2026-12-31' },
              },
              {
                name: 'ledger_totals',
                arguments: { ledger: 'expenses', from: '2026-01-01', to: '2026-12-31', groupBy: 'company' },
              },
              { name: 'budget_vs_actual', arguments: { companyId: a.id, year: 2026 } },
              { name: 'recent_changes', arguments: {} },
            ],
          }
        : { content: 'done' };
    await answerChat(scoped, settings, { message: 'Totals?' }, { now: NOW });
    const results = toolResults(fake.requests[1]);
    expect(results[0].result).toEqual({ error: 'No such company or record for this user' });
    expect(results[1].result).toMatchObject({
      companyId: b.id,
      total: 7777,
      groups: [{ label: b.name, amount: 7777, count: 1 }],
    });
    expect(results[2].result).toEqual({ error: 'No such company or record for this user' });
    expect(results[3].result).toEqual({ error: 'This user is not permitted to read that' });
    const everything = JSON.stringify(fake.requests.map((r) => r.body));
    expect(everything).not.toContain(a.name);
    expect(everything).not.toContain('5000.25');
  });

  it('bad tool arguments and unknown tools go back to the model as errors', async () => {
    fake.script = (_request, index) =>
      index === 0
        ? {
            toolCalls: [
              { name: 'drop_tables', arguments: {} },
              { name: 'ledger_totals', arguments: '{not json' },
              { name: 'ledger_totals', arguments: { ledger: 'wages', from: 'x', to: '2026-01-01' } },
            ],
          }
        : { content: 'sorry' };
    await answerChat(analyst, settings, { message: 'x' }, { now: NOW });
    const [unknown, notJson, invalid] = toolResults(fake.requests[1]).map((t) => t.result);
    expect(unknown).toEqual({ error: 'Unknown tool: drop_tables' });
    expect(notJson).toEqual({ error: 'The arguments are not valid JSON' });
    expect(invalid).toMatchObject({
      error: 'Invalid data',
      fields: expect.arrayContaining([
        expect.objectContaining({ field: 'ledger' }),
        expect.objectContaining({ field: 'from' }),
      ]),
    });
  });

  it('caps tool calls: calls past the limit are refused and the model must then answer without tools', async () => {
    fake.script = (request) =>
      request.body.tool_choice === 'none'
        ? { content: 'answer with what I have' }
        : {
            toolCalls: [
              { name: 'list_companies', arguments: {} },
              { name: 'list_companies', arguments: {} },
            ],
          };
    const answer = await answerWithModel(
      analyst,
      settings,
      { message: 'loop', history: [] },
      { now: NOW, limits: { toolCalls: 3 } },
    );
    expect(answer).toMatchObject({ response: 'answer with what I have', toolCalls: 3 });
    const results = toolResults(fake.requests.at(-1)!).map((t) => t.result);
    expect(results.filter((r) => Array.isArray(r))).toHaveLength(3);
    expect(results.filter((r) => !Array.isArray(r))).toEqual([
      { error: 'The limit of 3 tool calls per question is reached: answer with what you have.' },
    ]);
    expect(fake.requests.at(-1)!.body.tool_choice).toBe('none');
  });

  it("caps rounds, tokens and time, each as 'Chat failed: …'", async () => {
    fake.script = () => ({ toolCalls: [{ name: 'list_companies', arguments: {} }] });
    await expect(
      answerWithModel(analyst, settings, { message: 'x', history: [] }, { limits: { rounds: 2 } }),
    ).rejects.toThrow('Chat failed: no answer after 2 rounds with the language model');

    fake.script = () => ({ content: 'long', totalTokens: 50_000 });
    await expect(
      answerWithModel(analyst, settings, { message: 'x', history: [] }, { limits: { totalTokens: 1000 } }),
    ).rejects.toThrow('Chat failed: the answer needed more than 1,000 tokens');

    fake.script = () => ({ content: 'late', delayMs: 1500 });
    const started = Date.now();
    await expect(
      answerWithModel(analyst, settings, { message: 'x', history: [] }, { limits: { timeMs: 300 } }),
    ).rejects.toThrow('Chat failed: the language model did not answer in time');
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it("a server error, an unreachable server or an empty answer is 'Chat failed: …' (a 503), never the key", async () => {
    fake.script = () => ({ status: 500, error: 'The model exploded' });
    const failure = await answerChat(analyst, settings, { message: 'x' }).catch(
      (e: Error & { kind?: string; status?: number }) => e,
    );
    expect(failure).toMatchObject({
      kind: 'unavailable',
      message: 'Chat failed: the language model service answered 500 (The model exploded)',
    });
    expect((failure as Error).message).not.toContain(KEY);

    await expect(
      answerChat(analyst, { ...settings, baseUrl: 'http://127.0.0.1:9/v1' }, { message: 'x' }),
    ).rejects.toThrow('Chat failed: the language model service could not be reached');

    fake.script = () => ({ content: '   ' });
    await expect(answerChat(analyst, settings, { message: 'x' })).rejects.toThrow(
      'Chat failed: the language model gave an empty answer',
    );
  });

  it('still checks the permission and the message before calling the model', async () => {
    const plain = await userContext(db, (await createTestUser(db, { role: 'viewer' })).id);
    await expect(answerChat(plain, settings, { message: 'x' })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(answerChat(analyst, settings, { message: '   ' })).rejects.toMatchObject({ kind: 'invalid' });
    expect(fake.requests).toHaveLength(0);
  });

  it('narrates insights in a few sentences, or gives none when the model fails', async () => {
    fake.script = (request) => ({ content: `Summary of ${request.body.messages[1].content?.split('\n')[1]}` });
    expect(await narrateInsights(settings, 'the group', [{ title: 'Rising travel', description: 'Up 4%' }])).toBe(
      'Summary of - Rising travel: Up 4%',
    );
    expect(fake.requests[0].body.stream).toBeUndefined();
    fake.script = () => ({ status: 503 });
    expect(await narrateInsights(settings, 'the group', [{ title: 'T', description: 'D' }])).toBeNull();
    expect(await narrateInsights(settings, 'the group', [])).toBeNull();
  });
});
