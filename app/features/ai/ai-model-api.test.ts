// The AI layer with a language model over real HTTP, on every test dialect: OPENAI_API_KEY and
// OPENAI_BASE_URL point the server at a local fake OpenAI-compatible server. The chat call, the
// screen's stream and form post, and 'Generate now' with its narrated summary.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, toolResults, type FakeOpenAi } from '../../../test/support/fake-openai.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';

describe.each(TEST_DIALECTS)('AI with a language model on %s', (dialect) => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(() => fake?.close());
  afterEach(() => {
    fake.requests.length = 0;
  });
  const { db, signedIn } = useTestServer(dialect, {
    env: () => ({ OPENAI_API_KEY: 'sk-api-test', OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'fake-model' }),
  });
  const post = (c: TestClient, path: string, body: unknown) => c.request(path, { method: 'POST', json: body });
  const form = (c: TestClient, url: string, fields: Record<string, string>) =>
    c.request(url, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  const analyst = () => signedIn({ role: 'viewer', flags: { canAccessAnalytics: true } });
  let company: { id: number; name: string };

  beforeAll(async () => {
    company = (await db().selectFrom('companies').select(['id', 'name']).orderBy('id').execute())[1];
    const departmentId = (await db().selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const categoryId = (
      await db()
        .insertInto('expenseCategories')
        .values({ companyId: company.id, departmentId, name: `Model API ${dialect}` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db()
      .insertInto('actualExpenses')
      .values({
        companyId: company.id,
        departmentId,
        categoryId,
        amountCents: 123_456,
        expenseDate: '2026-02-02',
        description: 'model api',
        vendor: 'M',
      })
      .execute();
  });

  it('POST /api/ai/chat answers through the tools with the model; the context says so', async () => {
    fake.script = (request, index) =>
      index === 0
        ? {
            toolCalls: [
              {
                name: 'ledger_totals',
                arguments: { ledger: 'expenses', companyId: company.id, from: '2026-02-01', to: '2026-02-28' },
              },
            ],
          }
        : { content: `February: $${(toolResults(request)[0].result as { total: number }).total}` };
    const { c } = await analyst();
    const response = await post(c, '/api/ai/chat', {
      message: 'February?',
      context: { companyId: company.id },
      history: [{ type: 'user', content: 'hi' }],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      response: 'February: $1234.56',
      context: { companyId: company.id, mode: 'model' },
    });
    expect(fake.requests[0].headers.authorization).toBe('Bearer sk-api-test');
    expect(fake.requests[0].body.model).toBe('fake-model');
  });

  it("a failing model is a 503 'Chat failed: …' on the API, an error event on the stream, an error on the form; nothing is stored", async () => {
    fake.script = () => ({ status: 500, error: 'overloaded' });
    const { c } = await analyst();
    const api = await post(c, '/api/ai/chat', { message: 'x' });
    expect(api.status).toBe(503);
    expect(await api.json()).toEqual({ message: 'Chat failed: the language model service answered 500 (overloaded)' });

    const stream = await post(c, '/api/ai/chat/stream', { message: 'x' });
    expect(stream.status).toBe(200);
    expect((await stream.text()).trim()).toBe(
      JSON.stringify({ error: 'Chat failed: the language model service answered 500 (overloaded)' }),
    );

    const page = await form(c, '/ai-analytics?tab=chat', { intent: 'chat', message: 'x' });
    expect(page.status).toBe(503);
    expect((await page.text()).replace(/<!-- -->/g, '')).toContain(
      'Chat failed: the language model service answered 500 (overloaded)',
    );
    expect(await db().selectFrom('aiChatMessages').select('id').where('content', '=', 'x').execute()).toEqual([]);
  });

  it("a model's failure reads in the reader's language on the stream and the form; the /api stays English", async () => {
    fake.script = () => ({ status: 502, error: 'bad gateway' });
    const { c } = await analyst();
    expect((await c.request('/api/user-settings', { method: 'PUT', json: { language: 'es' } })).status).toBe(200);
    const api = await post(c, '/api/ai/chat', { message: 'y' });
    expect(await api.json()).toEqual({ message: 'Chat failed: the language model service answered 502 (bad gateway)' });
    const spanish = 'Error del chat: el servicio del modelo de lenguaje respondió 502 (bad gateway)';
    const stream = await post(c, '/api/ai/chat/stream', { message: 'y' });
    expect((await stream.text()).trim()).toBe(JSON.stringify({ error: spanish }));
    const page = await form(c, '/ai-analytics?tab=chat', { intent: 'chat', message: 'y' });
    expect((await page.text()).replace(/<!-- -->/g, '')).toContain(spanish);
  });

  it("the screen's stream sends the model's pieces as they come and keeps the conversation for the next question", async () => {
    fake.script = () => ({ content: 'A fairly long answer written by the fake model, in pieces.' });
    const { c } = await analyst();
    const events = (await (await post(c, '/api/ai/chat/stream', { message: 'first' })).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.delta).length).toBeGreaterThan(3);
    expect(events.map((e) => e.delta ?? '').join('')).toBe(
      'A fairly long answer written by the fake model, in pieces.',
    );
    expect(events.at(-1)).toEqual({ done: true, context: { companyId: null } });
    await post(c, '/api/ai/chat/stream', { message: 'second' });
    expect(fake.requests[1].body.messages.slice(1).map((m) => m.content)).toEqual([
      'first',
      'A fairly long answer written by the fake model, in pieces.',
      'second',
    ]);
    expect(await (await c.get('/ai-analytics?tab=chat')).text()).toContain('Answers are written by the language model');
  });

  it("Generate now adds the model's narrated summary, marked as such", async () => {
    fake.script = () => ({ content: 'Spending is steady; nothing needs attention.' });
    const { c } = await signedIn({ role: 'admin', flags: { canAccessAnalytics: true } });
    const generated = await form(c, `/ai-analytics?tab=insights&companyId=${company.id}`, {
      intent: 'generate',
      companyId: String(company.id),
    });
    expect(generated.status).toBe(302);
    const page = (await (await c.get(`/ai-analytics?tab=insights&companyId=${company.id}`)).text()).replace(
      /<!-- -->/g,
      '',
    );
    expect(page).toContain('Spending is steady; nothing needs attention.');
    expect(page).toContain('Written by the language model');
    const insights = await (await c.get(`/api/ai/insights?companyId=${company.id}`)).json();
    expect(insights[0]).toMatchObject({ narrated: true, title: `Summary for ${company.name}` });
    expect(insights.slice(1).every((i: { narrated: boolean }) => !i.narrated)).toBe(true);
  });
});
