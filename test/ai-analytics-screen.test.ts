// The AI Analytics screen over HTTP, as a browser without JavaScript uses it (spec 3 §2.4, DESIGN
// §8): each tab's GET form and results, the budget tab's company prompt, Generate now, the chat as
// a form post that carries its conversation, and the analytics permission.
import { beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from '../app/services/ai/forecast.ts';
import { TEST_DIALECTS } from './database.ts';
import { useTestServer, type TestClient } from './server.ts';

describe.each(TEST_DIALECTS)('AI analytics screen on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);
  const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '').replace(/&quot;/g, '"').replace(/&#x27;/g, "'");
  const post = (c: TestClient, url: string, fields: Record<string, string>) =>
    c.request(url, { method: 'POST', body: new URLSearchParams(fields), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  let companyId: number;
  let companyName: string;
  const category = `Screen AI ${dialect}`;

  beforeAll(async () => {
    const company = (await db().selectFrom('companies').select(['id', 'name']).orderBy('id').execute())[2];
    companyId = company.id;
    companyName = company.name;
    const departmentId = (await db().selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const categoryId = (await db().insertInto('expenseCategories').values({ companyId, departmentId, name: category }).returning('id').executeTakeFirstOrThrow()).id;
    const today = new Date().toISOString().slice(0, 10);
    await db().insertInto('actualExpenses').values([
      ...Array.from({ length: 12 }, (_, i) => ({ companyId, departmentId, categoryId, amountCents: 40_000 + 2_000 * i, expenseDate: `${addMonths(today.slice(0, 7), i - 12)}-03`, description: 'screen', vendor: 'Screen Co' })),
      { companyId, departmentId, categoryId, amountCents: 9_000_000, expenseDate: today, description: 'screen', vendor: 'Screen Co' },
    ]).execute();
    await db().insertInto('budgets').values({ companyId, departmentId, categoryId, amountCents: 100_000, period: 'annual', startDate: `${today.slice(0, 4)}-01-01`, endDate: `${today.slice(0, 4)}-12-31`, description: 'screen', status: 'active' }).execute();
  });

  const analyst = () => signedIn({ role: 'viewer', flags: { canAccessAnalytics: true } });

  it('shows the five tabs; predictions and anomalies from GET forms; the budget tab asks for a company first', async () => {
    const { c } = await analyst();
    const home = await text(await c.get('/ai-analytics'));
    for (const label of ['AI Insights', 'Predictions', 'Anomalies', 'Budget Analysis', 'AI Chat']) expect(home).toContain(`>${label}</a>`);

    const predictions = await text(await c.get(`/ai-analytics?tab=predictions&companyId=${companyId}&months=6`));
    expect(predictions).toContain(category);
    expect(predictions).toContain('history and prediction');
    expect(predictions).toContain('Increasing'.toLowerCase());

    const anomalies = await text(await c.get(`/ai-analytics?tab=anomalies&companyId=${companyId}&lookbackDays=7`));
    expect(anomalies).toContain('$90,000.00');
    expect(anomalies).toContain('critical');

    expect(await text(await c.get('/ai-analytics?tab=budget'))).toContain('Please select a company for budget analysis');
    const budget = await text(await c.get(`/ai-analytics?tab=budget&companyId=${companyId}`));
    expect(budget).toContain('Total budget');
    expect(budget).toContain('$1,000.00');
    expect(budget).toContain(`${category} is $`);
  });

  it('Generate now stores the insights and lists them; the chat answers as a form post and carries the conversation', async () => {
    const { c } = await analyst();
    const generated = await post(c, `/ai-analytics?tab=insights&companyId=${companyId}`, { intent: 'generate', companyId: String(companyId) });
    expect(generated.status).toBe(302);
    const insights = await text(await c.get(generated.headers.get('Location')!));
    expect(insights).toContain('Analysis Complete');
    expect(insights).toContain('unusual expense');

    const first = await post(c, '/ai-analytics?tab=chat', { intent: 'chat', message: `What did ${companyName} spend last year?` });
    expect(first.status).toBe(200);
    const raw = await first.text();
    const page = raw.replace(/<!-- -->/g, '').replace(/&#x27;/g, "'");
    expect(page).toContain(`Expenses of ${companyName} for`);
    expect(page).toContain('Offline mode');
    // The conversation travels in the form, as the page wrote it.
    const history = raw.match(/name="history" value="([^"]*)"/)![1].replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    expect(JSON.parse(history)).toHaveLength(2);
    const second = await text(await post(c, '/ai-analytics?tab=chat', { intent: 'chat', message: 'Any anomalies in the last 7 days?', history, companyId: String(companyId) }));
    expect(second).toContain(`What did ${companyName} spend last year?`);
    expect(second).toContain(`unusual expense in ${companyName}`);
    expect((await post(c, '/ai-analytics?tab=chat', { intent: 'chat', message: '  ' })).status).toBe(400);
    expect(await text(await c.get('/ai-analytics?tab=chat&cleared=1'))).toContain('Chat cleared.');
  });

  it('without the analytics permission: 403 for the page and its forms', async () => {
    const { c } = await signedIn({ role: 'viewer' });
    expect((await c.get('/ai-analytics')).status).toBe(403);
    expect((await post(c, '/ai-analytics', { intent: 'chat', message: 'total' })).status).toBe(403);
  });
});
