// The AI Analytics screen over HTTP, as a browser without JavaScript uses it
// (docs/screens.md): each tab's GET form and results, the budget tab's company prompt,
// Generate now, the chat as a form post that carries its conversation, and the analytics
// permission.
import { beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from './stats/forecast.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer, type TestClient } from '../../../test/server.ts';
import { waitFor } from '../../../test/wait.ts';

describe.each(TEST_DIALECTS)('AI analytics screen on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);
  const text = async (response: Response) =>
    (await response.text())
      .replace(/<!-- -->/g, '')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'");
  const post = (c: TestClient, url: string, fields: Record<string, string>) =>
    c.request(url, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  let companyId: number;
  let companyName: string;
  const category = `Screen AI ${dialect}`;

  beforeAll(async () => {
    const company = (await db().selectFrom('companies').select(['id', 'name']).orderBy('id').execute())[2];
    companyId = company.id;
    companyName = company.name;
    const departmentId = (await db().selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const categoryId = (
      await db()
        .insertInto('expenseCategories')
        .values({ companyId, departmentId, name: category })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const today = new Date().toISOString().slice(0, 10);
    await db()
      .insertInto('actualExpenses')
      .values([
        ...Array.from({ length: 12 }, (_, i) => ({
          companyId,
          departmentId,
          categoryId,
          amountCents: 40_000 + 2_000 * i,
          expenseDate: `${addMonths(today.slice(0, 7), i - 12)}-03`,
          description: 'screen',
          vendor: 'Screen Co',
        })),
        {
          companyId,
          departmentId,
          categoryId,
          amountCents: 9_000_000,
          expenseDate: today,
          description: 'screen',
          vendor: 'Screen Co',
        },
      ])
      .execute();
    await db()
      .insertInto('budgets')
      .values({
        companyId,
        departmentId,
        categoryId,
        amountCents: 100_000,
        period: 'annual',
        startDate: `${today.slice(0, 4)}-01-01`,
        endDate: `${today.slice(0, 4)}-12-31`,
        description: 'screen',
        status: 'active',
      })
      .execute();
  });

  const analyst = () => signedIn({ role: 'viewer', flags: { canAccessAnalytics: true } });

  it('shows the five tabs; predictions and anomalies from GET forms; the budget tab asks for a company first', async () => {
    const { c } = await analyst();
    const home = await text(await c.get('/ai-analytics'));
    for (const label of ['AI Insights', 'Predictions', 'Anomalies', 'Budget Analysis', 'AI Chat'])
      expect(home).toContain(`>${label}</a>`);

    const predictions = await text(await c.get(`/ai-analytics?tab=predictions&companyId=${companyId}&months=6`));
    expect(predictions).toContain(category);
    expect(predictions).toContain('history and prediction');
    expect(predictions).toContain('Increasing'.toLowerCase());
    // Category names repeat across companies: the chart and every row name the company.
    expect(predictions).toContain(`${companyName}, ${category} (`);
    expect(predictions).toMatch(
      new RegExp(`data-testid="prediction"[^]*?><span translate="no">${companyName}</span></td>`),
    );

    // The first visit finds nothing computed yet: it says so, and the computation starts.
    const first = await text(await c.get(`/ai-analytics?tab=anomalies&companyId=${companyId}&lookbackDays=7`));
    expect(first).toContain('Anomalies are being computed for the first time');
    const anomalies = await waitFor(
      async () => {
        const page = await text(await c.get(`/ai-analytics?tab=anomalies&companyId=${companyId}&lookbackDays=7`));
        return page.includes('data-testid="anomaly"') ? page : null;
      },
      { what: 'the computed anomalies' },
    );
    expect(anomalies).toContain('$90,000.00');
    expect(anomalies).toMatch(new RegExp(`data-testid="anomaly"[^]*?><span translate="no">${companyName}</span></td>`));
    expect(anomalies).toContain('critical');
    expect(anomalies).toMatch(/Computed (just now|1 minute ago)<\/time> from the books as they are\./);
    // A German reader reads the explanation in German, in German formats; the /api stays English.
    const { c: german } = await analyst();
    expect((await german.request('/api/user-settings', { method: 'PUT', json: { language: 'de' } })).status).toBe(200);
    const inGerman = await text(await german.get(`/ai-analytics?tab=anomalies&companyId=${companyId}&lookbackDays=7`));
    expect(inGerman).toMatch(
      /90\.000,00\s\$ liegt weit über dem üblichen Betrag dieser Kategorie von [\d.,]+\s\$ \([\d.,]+ robuste Standardabweichungen über ihre letzten \d+ Ausgaben\)\./,
    );
    const api = await german.post('/api/ai/detect-anomalies', { companyId, lookbackDays: 7 });
    expect((await api.json())[0].explanation).toMatch(
      /^\$90,000\.00 is far above this category's usual \$[\d,.]+ \([\d.]+ robust standard deviations over its last \d+ expenses\)\.$/,
    );

    expect(await text(await c.get('/ai-analytics?tab=budget'))).toContain(
      'Please select a company for budget analysis',
    );
    const budget = await text(await c.get(`/ai-analytics?tab=budget&companyId=${companyId}`));
    expect(budget).toContain('Total budget');
    expect(budget).toContain('$1,000.00');
    expect(budget).toContain(`${category} is $`);
    // The year list names years, not "2024 s"; the other lists keep their units.
    expect(budget).toMatch(/<option value="2025"[^>]*>2025<\/option>/);
    expect(await text(await c.get('/ai-analytics?tab=predictions'))).toMatch(
      /<option value="1"[^>]*>1 month<\/option>.*<option value="3"[^>]*>3 months<\/option>/s,
    );
  });

  it('Generate now stores the insights and lists them; the chat answers as a form post and carries the conversation', async () => {
    const { c } = await analyst();
    const generated = await post(c, `/ai-analytics?tab=insights&companyId=${companyId}`, {
      intent: 'generate',
      companyId: String(companyId),
    });
    expect(generated.status).toBe(302);
    const insights = await text(await c.get(generated.headers.get('Location')!));
    expect(insights).toContain('Analysis Complete');
    expect(insights).toContain('unusual expense');

    // The chat is a plain post: the conversation is kept on the server for this session.
    const first = await post(c, '/ai-analytics?tab=chat', {
      intent: 'chat',
      message: `What did ${companyName} spend last year?`,
    });
    expect(first.status).toBe(302);
    expect(first.headers.get('Location')).toBe('/ai-analytics?tab=chat');
    const page = await text(await c.get('/ai-analytics?tab=chat'));
    expect(page).toContain(`Expenses of ${companyName} for`);
    expect(page).toContain('Offline mode');
    expect(page).not.toContain('name="history"');
    // A follow-up uses the conversation's company without naming it.
    await post(c, '/ai-analytics?tab=chat', { intent: 'chat', message: 'Any anomalies in the last 7 days?' });
    const second = await text(await c.get('/ai-analytics?tab=chat'));
    expect(second).toContain(`What did ${companyName} spend last year?`);
    expect(second).toContain(`unusual expense in ${companyName}`);
    expect(second.match(/data-testid="chat-(user|assistant)"/g)).toHaveLength(4);

    // Another session of the same user starts with the welcome message only.
    const { c: other } = await analyst();
    expect(
      (await text(await other.get('/ai-analytics?tab=chat'))).match(/data-testid="chat-(user|assistant)"/g),
    ).toBeNull();

    const blank = await post(c, '/ai-analytics?tab=chat', { intent: 'chat', message: '  ' });
    expect(blank.status).toBe(400);
    expect(await text(blank)).toContain('Chat failed: Message is required');

    const cleared = await post(c, '/ai-analytics?tab=chat', { intent: 'clear' });
    expect(cleared.headers.get('Location')).toBe('/ai-analytics?tab=chat&cleared=1');
    const after = await text(await c.get('/ai-analytics?tab=chat&cleared=1'));
    expect(after).toContain('Chat cleared.');
    expect(after).not.toContain('chat-assistant');
    expect(
      await db()
        .selectFrom('aiChatMessages')
        .select('id')
        .where('content', 'like', `What did ${companyName}%`)
        .execute(),
    ).toEqual([]);
  });

  it("Analyze says Analysis Complete with what it found, or the spec's failure toast", async () => {
    const { c } = await analyst();
    expect(await text(await c.get(`/ai-analytics?tab=predictions&companyId=${companyId}&months=3&run=1`))).toMatch(
      /Analysis Complete.*\d+ predictions? generated/s,
    );
    const anomalies = await text(
      await c.get(`/ai-analytics?tab=anomalies&companyId=${companyId}&lookbackDays=7&run=1`),
    );
    expect(anomalies).toMatch(/Analysis Complete.*1 anomaly detected/s);
    // The anomaly is marked on the daily series: seven days, one marked point at its amount.
    expect(anomalies).toContain('Daily expenses of the last 7 days, anomalies marked');
    // The day as the reader's default date format (MM/dd/yyyy, UTC) writes it.
    const [year, month, day] = new Date().toISOString().slice(0, 10).split('-');
    expect(anomalies).toContain(`Anomaly — ${month}/${day}/${year}: $90,000.00`);
    expect(await text(await c.get(`/ai-analytics?tab=budget&companyId=${companyId}&run=1`))).toContain(
      'Budget performance analysis ready',
    );
    expect(await text(await c.get('/ai-analytics?tab=budget&run=1'))).toMatch(
      /role="alert".*Please select a company for budget analysis/s,
    );
    // Without run=1 (following a tab link) no toast.
    expect(await text(await c.get(`/ai-analytics?tab=predictions&companyId=${companyId}`))).not.toContain(
      'Analysis Complete',
    );
  });

  it('without the analytics permission: 403 for the page and its forms', async () => {
    const { c } = await signedIn({ role: 'viewer' });
    expect((await c.get('/ai-analytics')).status).toBe(403);
    expect((await post(c, '/ai-analytics', { intent: 'chat', message: 'total' })).status).toBe(403);
  });

  it('long results come a page at a time (20 predictions, 15 anomalies), ranked, with a Show more link that needs no JavaScript; pages stay small', async () => {
    const { c } = await analyst();
    const departmentId = (await db().selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const company = (await db().selectFrom('companies').select('id').orderBy('id').execute())[1].id;
    // 30 series to predict, and the same charge booked 31 times on one day: 30 duplicates.
    const categories: number[] = [];
    for (let i = 0; i < 30; i++) {
      categories.push(
        (
          await db()
            .insertInto('expenseCategories')
            .values({ companyId: company, departmentId, name: `Paged ${dialect} ${String(i).padStart(2, '0')}` })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    }
    const today = new Date().toISOString().slice(0, 10);
    await db()
      .insertInto('actualExpenses')
      .values([
        ...categories.flatMap((categoryId, i) =>
          [1, 2, 3].map((m) => ({
            companyId: company,
            departmentId,
            categoryId,
            amountCents: 10_000 * (i + 1) + m * 100,
            expenseDate: `${addMonths(today.slice(0, 7), -m)}-10`,
            description: 'paged',
            vendor: `Paged vendor ${i}`,
          })),
        ),
        ...Array.from({ length: 31 }, () => ({
          companyId: company,
          departmentId,
          categoryId: categories[0],
          amountCents: 12_300,
          expenseDate: today,
          description: 'paged twice',
          vendor: 'Double Billing Ltd',
        })),
      ])
      .execute();

    const anomalyUrl = `/ai-analytics?tab=anomalies&companyId=${company}&lookbackDays=7`;
    const firstPage = await waitFor(
      async () => {
        const page = await text(await c.get(anomalyUrl));
        return page.includes('Showing 1–15 of 30 anomalies') ? page : null;
      },
      { what: 'the planted duplicates' },
    );
    expect(firstPage.match(/data-testid="anomaly"/g)).toHaveLength(15);
    expect(firstPage).toContain(
      `href="/ai-analytics?tab=anomalies&amp;companyId=${company}&amp;lookbackDays=7&amp;offset=15">Show more</a>`,
    );
    expect(firstPage).not.toContain('Back to the first');
    const rest = await text(await c.get(`${anomalyUrl}&offset=15`));
    expect(rest.match(/data-testid="anomaly"/g)).toHaveLength(15);
    expect(rest).toContain('Showing 16–30 of 30 anomalies');
    expect(rest).toContain('Back to the first');
    expect(rest).not.toContain('>Show more</a>');

    const predictionUrl = `/ai-analytics?tab=predictions&companyId=${company}&months=3`;
    const predictions = await text(await c.get(predictionUrl));
    expect(predictions.match(/data-testid="prediction"/g)).toHaveLength(20);
    expect(predictions).toContain('Showing 1–20 of 30 predictions, ranked');
    // Ranked by predicted amount: the largest series first, its chart on every page.
    // The second cell: the category (the first names the company).
    const ranked = [
      ...predictions.matchAll(
        /data-testid="prediction"><td[^>]*><span translate="no">[^<]*<\/span><\/td><td[^>]*><span translate="no">([^<]+)</g,
      ),
    ].map((m) => m[1]);
    expect(ranked.slice(0, 2)).toEqual([`Paged ${dialect} 29`, `Paged ${dialect} 28`]);
    const more = await text(await c.get(`${predictionUrl}&offset=20`));
    expect(more.match(/data-testid="prediction"/g)).toHaveLength(10);
    expect(more).toContain(`Paged ${dialect} 00`);
    expect(more).toContain('history and prediction');

    for (const url of [
      anomalyUrl,
      `${anomalyUrl}&offset=15`,
      predictionUrl,
      `/ai-analytics?tab=anomalies&lookbackDays=90`,
      `/ai-analytics?tab=predictions`,
    ]) {
      const bytes = (await (await c.get(url)).arrayBuffer()).byteLength;
      expect(bytes, url).toBeLessThan(60 * 1024);
    }
  });
});
