// The AI analytics calls over real HTTP, on every test dialect: the answers' shapes,
// the analytics permission, company scope and bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from './stats/forecast.ts';
import { SELECT_COMPANY } from './ai-analytics.server.ts';
import { ANOMALIES_COMPUTING } from './ai-anomalies.server.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';
import { waitFor } from '../../../test/wait.ts';
import { systemContext } from '../../../test/context.ts';

describe.each(TEST_DIALECTS)('/api/ai on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);
  let companyId: number;
  let otherCompanyId: number;

  beforeAll(async () => {
    const companies = await db().selectFrom('companies').select('id').orderBy('id').execute();
    companyId = companies[2].id;
    otherCompanyId = companies[3].id;
    const departmentId = (await db().selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const categoryId = (
      await db()
        .insertInto('expenseCategories')
        .values({ companyId, departmentId, name: `API AI ${dialect}` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const today = new Date().toISOString().slice(0, 10);
    const start = addMonths(today.slice(0, 7), -14);
    await db()
      .insertInto('actualExpenses')
      .values([
        ...Array.from({ length: 14 }, (_, i) => ({
          companyId,
          departmentId,
          categoryId,
          amountCents: 50_000 + 1_000 * i,
          expenseDate: `${addMonths(start, i)}-01`,
          description: 'API AI',
          vendor: 'Steady Ltd',
        })),
        {
          companyId,
          departmentId,
          categoryId,
          amountCents: 5_000_000,
          expenseDate: today,
          description: 'API AI',
          vendor: 'Steady Ltd',
        },
      ])
      .execute();
  });

  const analyst = () => signedIn({ role: 'viewer', flags: { canAccessAnalytics: true } });
  const post = (c: TestClient, path: string, body: unknown) => c.request(path, { method: 'POST', json: body });

  it("predictions, anomalies and budget analysis answer with the spec's fields", async () => {
    const { c } = await analyst();
    const predictions = await (
      await post(c, '/api/ai/predict-expenses', { companyId, departmentId: null, categoryId: null, months: 6 })
    ).json();
    expect(predictions[0]).toMatchObject({
      categoryName: `API AI ${dialect}`,
      departmentName: expect.any(String),
      predictedAmount: expect.any(Number),
      confidence: expect.any(Number),
      historicalAverage: expect.any(Number),
      seasonalPattern: false,
      trend: 'increasing',
      factors: expect.any(Array),
    });
    expect(predictions[0].forecast).toHaveLength(6);

    // Anomalies are read from the stored findings: before the first computation a 429 with
    // Retry-After says so (and asks for one), then they come with their total and computation time.
    const first = await post(c, '/api/ai/detect-anomalies', { companyId, lookbackDays: 7 });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('30');
    expect(await first.json()).toEqual({ message: ANOMALIES_COMPUTING });
    const answered = await waitFor(
      async () => {
        const response = await post(c, '/api/ai/detect-anomalies', { companyId, lookbackDays: 7 });
        return response.status === 200 ? response : null;
      },
      { what: 'the first computation of the anomalies' },
    );
    const anomalies = await answered.json();
    expect(anomalies[0]).toMatchObject({
      categoryName: `API AI ${dialect}`,
      companyId,
      anomalyType: 'unusual_amount',
      severity: 'critical',
      amount: 50_000,
      expectedAmount: expect.any(Number),
      deviation: expect.any(Number),
      date: expect.any(String),
      explanation: expect.any(String),
      recommendations: expect.any(Array),
    });
    expect(answered.headers.get('x-total-count')).toBe(String(anomalies.length));
    expect(Date.now() - Date.parse(answered.headers.get('x-computed-at')!)).toBeLessThan(60_000);
    const paged = await post(c, '/api/ai/detect-anomalies', { companyId, lookbackDays: 90, limit: 1, offset: 0 });
    expect(await paged.json()).toHaveLength(1);
    expect((await post(c, '/api/ai/detect-anomalies', { companyId, limit: 1001 })).status).toBe(400);

    const year = new Date().getUTCFullYear();
    const budget = await c.get(`/api/ai/budget-analysis/${companyId}/${year}`);
    expect(budget.status).toBe(200);
    expect(await budget.json()).toMatchObject({
      companyId,
      year,
      totalBudget: expect.any(Number),
      totalActual: expect.any(Number),
      variance: expect.any(Number),
      recommendations: expect.any(Array),
    });
  });

  it('needs the analytics permission (403), sign-in (401); a scoped user gets 404 for another company', async () => {
    const { c: plain } = await signedIn({ role: 'viewer' });
    expect((await post(plain, '/api/ai/predict-expenses', {})).status).toBe(403);
    expect((await plain.get(`/api/ai/budget-analysis/${companyId}/2026`)).status).toBe(403);
    const { c: scoped } = await signedIn({
      role: 'viewer',
      companyId: otherCompanyId,
      flags: { canAccessAnalytics: true },
    });
    expect((await post(scoped, '/api/ai/detect-anomalies', { companyId })).status).toBe(404);
    expect((await scoped.get(`/api/ai/budget-analysis/${companyId}/2026`)).status).toBe(404);
    expect((await post(scoped, '/api/ai/detect-anomalies', {})).status).toBe(200);
  });

  it('bad input is a 400 with field errors; a missing company says to select one', async () => {
    const { c } = await analyst();
    for (const [path, body] of [
      ['/api/ai/predict-expenses', { months: 5 }],
      ['/api/ai/detect-anomalies', { lookbackDays: 'soon' }],
    ] as const) {
      const response = await post(c, path, body);
      expect(response.status).toBe(400);
      expect((await response.json()).errors.length).toBeGreaterThan(0);
    }
    expect((await c.get(`/api/ai/budget-analysis/${companyId}/1999`)).status).toBe(400);
    expect((await c.get('/api/ai/budget-analysis/abc/2026')).status).toBe(404);
    const malformed = await c.request('/api/ai/predict-expenses', {
      method: 'POST',
      body: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(SELECT_COMPANY).toBe('Please select a company for budget analysis');
    expect((await c.get('/api/ai/insights?companyId=abc')).status).toBe(400);
  });

  it('chat: an offline answer with the numbers, the context for the next question; an empty message is a 400', async () => {
    const { c } = await analyst();
    const name = (
      await db().selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirstOrThrow()
    ).name;
    const response = await post(c, '/api/ai/chat', {
      message: `Any anomalies for ${name} in the last 7 days?`,
      context: {},
      history: [],
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.response).toContain(`1 unusual expense in ${name} over the last 7 days (computed`);
    expect(body.response).toContain('Offline mode');
    expect(body.context).toEqual({ companyId, topic: 'anomalies', mode: 'offline' });
    const empty = await post(c, '/api/ai/chat', { message: '  ' });
    expect(empty.status).toBe(400);
    expect((await empty.json()).errors[0]).toEqual({ field: 'message', message: 'Message is required' });
  });

  it("chat stream: the answer as newline-delimited JSON, kept in this session's conversation", async () => {
    const { c } = await analyst();
    const name = (
      await db().selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirstOrThrow()
    ).name;
    const response = await post(c, '/api/ai/chat/stream', { message: `What did ${name} spend this year?` });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    expect(response.headers.get('content-encoding')).toBeNull();
    const events = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.at(-1)).toEqual({ done: true, context: { companyId, topic: 'expenses' } });
    const answer = events
      .slice(0, -1)
      .map((e) => e.delta)
      .join('');
    expect(answer).toMatch(
      new RegExp(`^Expenses of ${name} for \\d{4}: \\$[\\d,.]+ across \\d+ expenses?\\.\\n\\nOffline mode`),
    );
    // The screen shows the same conversation; the follow-up keeps the company.
    // Read to its end: the answer is kept when the stream has finished.
    await (await post(c, '/api/ai/chat/stream', { message: 'And revenue?' })).text();
    const page = (await (await c.get('/ai-analytics?tab=chat')).text()).replace(/<!-- -->/g, '');
    expect(page).toContain(`What did ${name} spend this year?`);
    expect(page).toContain(`Revenue of ${name} for`);

    expect((await post(c, '/api/ai/chat/stream', { message: '' })).status).toBe(400);
    const { c: plain } = await signedIn({ role: 'viewer' });
    expect((await post(plain, '/api/ai/chat/stream', { message: 'total' })).status).toBe(403);
    expect((await c.get('/api/ai/chat/stream')).status).toBe(405);
  });

  it('insights: the stored ones, most pressing first', async () => {
    const { generateAllInsights } = await import('./ai-insights.server.ts');
    await generateAllInsights(systemContext(db()));
    const { c } = await analyst();
    const response = await c.get(`/api/ai/insights?companyId=${companyId}`);
    expect(response.status).toBe(200);
    const insights = await response.json();
    expect(insights[0]).toMatchObject({
      companyId,
      type: 'alert',
      priority: 'critical',
      impact: 'negative',
      title: expect.any(String),
      description: expect.any(String),
      actionItems: expect.any(Array),
      generatedAt: expect.any(String),
    });
    expect(insights.every((i: { companyId: number }) => i.companyId === companyId)).toBe(true);
  });
});
