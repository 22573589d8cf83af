// The chat's suggested questions, asked offline over the demo books on every test dialect: each
// is answered for the company (or the group) it names, written as people write it ("Atlas",
// "Vult's", "one network"), with the figure the books hold, computed here from the rows
// themselves; every figure names its company or the group; a question the chat does not
// understand gets what it can answer, also right after another question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userContext } from '../../../test/context.ts';
import { createTestDatabase, OWNER_PASSWORD, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { forecast } from './stats/forecast.ts';
import { answerOffline, CAPABILITIES, nameIn, SUGGESTED_QUESTIONS } from './ai-chat.server.ts';
import { anomalyRunSettled } from './anomaly-runs.server.ts';
import { prepareDatabase } from '../system/bootstrap.server.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { refreshExpenseAnomalies, windowStart } from './expense-anomalies.server.ts';

const usd = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const iso = (d: Date) => d.toISOString().slice(0, 10);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The answer's lines that state a figure of a list. */
const items = (response: string) => response.split('\n').filter((l) => l.startsWith('- '));

describe('names as people write them', () => {
  const companies = [
    { name: 'One Network' },
    { name: 'Vult' },
    { name: 'Atlas Infrastructure' },
    { name: 'Spark Marketing' },
  ];
  it('whole names, unique prefixes of whole words, any case; ambiguous or too short prefixes name nothing', () => {
    expect(nameIn('Is Atlas over budget?', companies)?.item.name).toBe('Atlas Infrastructure');
    expect(nameIn('what did vult’s team spend', companies)?.item.name).toBe('Vult');
    expect(nameIn('top categories for ONE NETWORK', companies)).toMatchObject({
      item: { name: 'One Network' },
      rest: 'top categories for',
    });
    expect(nameIn('spend of spark', companies)?.item.name).toBe('Spark Marketing');
    expect(nameIn('Tell me a joke', companies)).toBeNull();
    expect(nameIn('at', companies)).toBeNull();
    expect(nameIn('market', [{ name: 'Marketing Campaigns' }, { name: 'Market Research' }])?.item.name).toBe(
      'Market Research',
    );
    expect(nameIn('mark', [{ name: 'Marketing Campaigns' }, { name: 'Market Research' }])).toBeNull();
  });
});

describe.each(TEST_DIALECTS)('chat suggested questions over the demo books on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let analyst: ServiceContext;
  const now = new Date();
  const year = now.getUTCFullYear();
  let company: (name: string) => { id: number; name: string };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await prepareDatabase(database, {
      seedDemo: true,
      owner: { email: 'owner@example.com', password: OWNER_PASSWORD },
    });
    db = database.db;
    const companies = await db.selectFrom('companies').select(['id', 'name']).execute();
    company = (name) => companies.find((c) => c.name === name)!;
    analyst = await userContext(
      db,
      (await createTestUser(db, { role: 'viewer', flags: { canAccessAnalytics: true } })).id,
    );
  }, 300_000);
  afterAll(() => database?.destroy());

  const ask = (message: string, context?: object) => answerOffline(analyst, { message, context }, now);

  /** Sum and count of the expenses between two days, of one company (or all) and category name (or all). */
  const spent = async (from: string, to: string, companyId: number | null, category?: string) => {
    const rows = await db
      .selectFrom('actualExpenses as e')
      .innerJoin('expenseCategories as c', 'c.id', 'e.categoryId')
      .select(['e.amountCents', 'c.name'])
      .where('e.expenseDate', '>=', from)
      .where('e.expenseDate', '<=', to)
      .$if(companyId !== null, (q) => q.where('e.companyId', '=', companyId!))
      .$if(category !== undefined, (q) => q.where('c.name', '=', category!))
      .execute();
    return { cents: rows.reduce((s, r) => s + Number(r.amountCents), 0), count: rows.length, rows };
  };

  /** The total predicted over the next `months` for one company (and category name), forecast from its monthly rows. */
  const predicted = async (companyId: number, months: number, category?: string) => {
    const first = iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 36, 1)));
    const last = iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)));
    const rows = await db
      .selectFrom('actualExpenses as e')
      .innerJoin('expenseCategories as c', 'c.id', 'e.categoryId')
      .select(['e.amountCents', 'e.expenseDate', 'e.categoryId', 'e.departmentId'])
      .where('e.companyId', '=', companyId)
      .where('e.expenseDate', '>=', first)
      .where('e.expenseDate', '<=', last)
      .$if(category !== undefined, (q) => q.where('c.name', '=', category!))
      .execute();
    const series = new Map<string, Map<string, number>>();
    for (const r of rows) {
      const key = `${r.categoryId}:${r.departmentId}`;
      const month = String(r.expenseDate).slice(0, 7);
      const byMonth = series.get(key) ?? new Map<string, number>();
      byMonth.set(month, (byMonth.get(month) ?? 0) + Number(r.amountCents));
      series.set(key, byMonth);
    }
    return [...series.values()].reduce(
      (sum, byMonth) =>
        sum +
        Math.round(
          forecast(
            [...byMonth].map(([month, cents]) => ({ month, cents })),
            months,
          ).predictedCents,
        ),
      0,
    );
  };

  it('every suggested question is one this test answers', () => {
    expect([...SUGGESTED_QUESTIONS].sort()).toEqual([
      'Any anomalies in the last 90 days?',
      'Forecast the next 6 months of Salaries for Vult',
      'Is Atlas over budget in 2026?',
      'Top categories for One Network last year',
      'What did Vult spend in 2026?',
      'What did Vult spend on Salaries last month?',
      'What did we spend this year?',
    ]);
    for (const q of SUGGESTED_QUESTIONS.filter((q) => q !== 'What did we spend this year?'))
      expect(CAPABILITIES.join('\n')).toContain(q);
  });

  it('"What did we spend this year?" and "What did Vult spend in 2026?"', async () => {
    const group = await spent(`${year}-01-01`, `${year}-12-31`, null);
    expect((await ask('What did we spend this year?')).response).toContain(
      `Expenses of the group for ${year}: ${usd(group.cents)} across ${group.count} expenses.`,
    );
    const vult = company('Vult');
    const mine = await spent('2026-01-01', '2026-12-31', vult.id);
    expect(mine.count).toBeGreaterThan(0);
    const answer = await ask('What did Vult spend in 2026?');
    expect(answer.response).toContain(`Expenses of Vult for 2026: ${usd(mine.cents)} across ${mine.count} expenses.`);
    expect(answer.context).toMatchObject({ companyId: vult.id, topic: 'expenses' });
  });

  it('"What did Vult spend on Salaries last month?": the category as people write it', async () => {
    const vult = company('Vult');
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
    const salaries = await spent(iso(from), iso(to), vult.id, 'Salaries & Wages');
    expect(salaries.count).toBeGreaterThan(0);
    expect((await ask('What did Vult spend on Salaries last month?')).response).toContain(
      `Expenses of Vult on Salaries & Wages for last month: ${usd(salaries.cents)} across ${salaries.count} expense${salaries.count === 1 ? '' : 's'}.`,
    );
  });

  it('"Top categories for One Network last year": the five largest, named for One Network', async () => {
    const network = company('One Network');
    const { rows } = await spent(`${year - 1}-01-01`, `${year - 1}-12-31`, network.id);
    const byCategory = new Map<string, number>();
    for (const r of rows) byCategory.set(r.name, (byCategory.get(r.name) ?? 0) + Number(r.amountCents));
    const top = [...byCategory].sort((a, b) => b[1] - a[1]).slice(0, 5);
    const answer = (await ask('Top categories for One Network last year')).response;
    expect(answer).toContain(
      `Top expense categories of One Network for ${year - 1}:\n${top.map(([name, cents], i) => `${i + 1}. ${name}: ${usd(cents)}`).join('\n')}\n`,
    );
  });

  it('"Is Atlas over budget in 2026?": Atlas Infrastructure’s year, budget against actual', async () => {
    const atlas = company('Atlas Infrastructure');
    const budgets = await db
      .selectFrom('budgets')
      .select(['amountCents', 'startDate', 'endDate'])
      .where('companyId', '=', atlas.id)
      .where('status', '=', 'active')
      .where('startDate', '<=', '2026-12-31')
      .where('endDate', '>=', '2026-01-01')
      .execute();
    // The demo plans one calendar month, quarter or year at a time: each lies inside the year.
    for (const b of budgets)
      expect([String(b.startDate).slice(0, 4), String(b.endDate).slice(0, 4)]).toEqual(['2026', '2026']);
    const plan = budgets.reduce((s, b) => s + Number(b.amountCents), 0);
    const actual = (await spent('2026-01-01', '2026-12-31', atlas.id)).cents;
    expect(plan).toBeGreaterThan(0);
    const answer = (await ask('Is Atlas over budget in 2026?')).response;
    expect(answer).not.toContain('Which company?');
    expect(answer).toMatch(
      new RegExp(
        `^Atlas Infrastructure in 2026: budget ${escape(usd(plan))}, actual ${escape(usd(actual))}, variance ${escape(usd(actual - plan))}( \\([-\\d.]+%\\))? — ${actual > plan ? 'over budget' : 'within budget'}\\.`,
      ),
    );
  });

  it('"Any anomalies in the last 90 days?": the group’s count, each finding named with its company; then "Tell me a joke" gets what the chat can answer', async () => {
    await anomalyRunSettled(db);
    await refreshExpenseAnomalies(db, { now, force: true });
    const run = await db
      .selectFrom('expenseAnomalyRuns')
      .select('generation')
      .where('computedAt', 'is not', null)
      .orderBy('generation', 'desc')
      .executeTakeFirstOrThrow();
    const findings = await db
      .selectFrom('expenseAnomalies')
      .select('companyId')
      .where('generation', '=', run.generation)
      .where('expenseDate', '>=', windowStart(now, 90))
      .execute();
    const names = (await db.selectFrom('companies').select('name').execute()).map((c) => c.name);
    const answer = await ask('Any anomalies in the last 90 days?');
    if (findings.length === 0)
      expect(answer.response).toContain('No unusual expenses in the group over the last 90 days');
    else
      expect(answer.response).toContain(
        `${findings.length} unusual expense${findings.length === 1 ? '' : 's'} in the group over the last 90 days`,
      );
    expect(items(answer.response)).toHaveLength(Math.min(5, findings.length));
    for (const line of items(answer.response))
      expect(
        names.some((n) => line.startsWith(`- ${n}, `)),
        line,
      ).toBe(true);

    const joke = await ask('Tell me a joke', answer.context);
    expect(joke.response).toMatch(/^I can answer/);
    for (const line of CAPABILITIES) expect(joke.response).toContain(line);
    expect(joke.response).not.toMatch(/unusual expenses? in /);
    // A real follow-up still continues the question before it.
    const atlas = await ask('What about atlas?', answer.context);
    expect(atlas.response).toMatch(/unusual expenses? in Atlas Infrastructure over the last \d+ days/);
  });

  it('"Forecast the next 6 months of Salaries for Vult" and "…for Atlas": that company’s forecast, every line naming it', async () => {
    const vult = company('Vult');
    const salaries = await ask('Forecast the next 6 months of Salaries for Vult');
    expect(salaries.response.split('\n')[0]).toBe(
      `Predicted expenses of Vult on Salaries & Wages for the next 6 months: ${usd(await predicted(vult.id, 6, 'Salaries & Wages'))}.`,
    );
    expect(items(salaries.response).length).toBeGreaterThan(0);
    for (const line of items(salaries.response)) expect(line).toMatch(/^- Vult, Salaries & Wages \(/);

    const atlas = company('Atlas Infrastructure');
    const forecastAtlas = await ask('Forecast the next 6 months for Atlas');
    expect(forecastAtlas.response.split('\n')[0]).toBe(
      `Predicted expenses of Atlas Infrastructure for the next 6 months: ${usd(await predicted(atlas.id, 6))}.`,
    );
    expect(items(forecastAtlas.response)).toHaveLength(5);
    for (const line of items(forecastAtlas.response)) expect(line).toMatch(/^- Atlas Infrastructure, /);
  });

  it('the group’s forecast names the company of each line, so no two lines read the same', async () => {
    const names = (await db.selectFrom('companies').select('name').execute()).map((c) => c.name);
    const group = await ask('Forecast the next 3 months');
    expect(group.response).toMatch(/^Predicted expenses of the group for the next 3 months: /);
    const lines = items(group.response);
    expect(lines).toHaveLength(5);
    for (const line of lines)
      expect(
        names.some((n) => line.startsWith(`- ${n}, `)),
        line,
      ).toBe(true);
    expect(new Set(lines.map((l) => l.replace(/: \$.*/, ''))).size).toBe(lines.length);
  });
});
