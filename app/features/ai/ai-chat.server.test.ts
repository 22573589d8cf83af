// The chat's offline answers against the books on every test dialect: each common question is
// answered with the numbers the database holds, within the asker's scope; the rest get the list
// of what it can answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../test/assertions.ts';
import { userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { answerOffline, CAPABILITIES, OFFLINE_NOTE, periodOf } from './ai-chat.server.ts';
import { ANOMALIES_COMPUTING } from './ai-anomalies.server.ts';
import { anomalyRunSettled } from './anomaly-runs.server.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { refreshExpenseAnomalies } from './expense-anomalies.server.ts';

const NOW = new Date('2026-11-20T12:00:00Z');

describe('chat periods', () => {
  it('reads a year, a month, this/last year or month and the last N days; default this year', () => {
    expect(periodOf('in 2025', NOW)).toEqual({ from: '2025-01-01', to: '2025-12-31', label: '2025' });
    expect(periodOf('last year', NOW)).toMatchObject({ from: '2025-01-01', to: '2025-12-31' });
    expect(periodOf('for March 2026', NOW)).toEqual({ from: '2026-03-01', to: '2026-03-31', label: 'March 2026' });
    expect(periodOf('February', NOW)).toMatchObject({ from: '2026-02-01', to: '2026-02-28' });
    expect(periodOf('last month', NOW)).toMatchObject({ from: '2026-10-01', to: '2026-10-31' });
    expect(periodOf('the last 30 days', NOW)).toMatchObject({ from: '2026-10-22', to: '2026-11-20' });
    expect(periodOf('anything', NOW)).toMatchObject({ from: '2026-01-01', to: '2026-12-31' });
  });
});

describe.each(TEST_DIALECTS)('chat offline on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let analyst: ServiceContext;
  let scoped: ServiceContext;
  let companies: { id: number; name: string }[];

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    companies = await db.selectFrom('companies').select(['id', 'name']).orderBy('id').execute();
    const departmentId = (await db.selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const [a, b] = [companies[2], companies[3]];
    const category = async (companyId: number, name: string) =>
      (
        await db
          .insertInto('expenseCategories')
          .values({ companyId, departmentId, name })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const travel = await category(a.id, `Chat Travel ${dialect}`);
    const software = await category(a.id, `Chat Software ${dialect}`);
    const other = await category(b.id, `Chat Other ${dialect}`);
    const e = (companyId: number, categoryId: number, amountCents: number, expenseDate: string) => ({
      companyId,
      departmentId,
      categoryId,
      amountCents,
      expenseDate,
      description: 'chat',
      vendor: 'V',
    });
    await db
      .insertInto('actualExpenses')
      .values([
        e(a.id, travel, 300_000, '2026-03-05'),
        e(a.id, travel, 200_000, '2026-04-05'),
        e(a.id, software, 100_050, '2026-03-09'),
        e(a.id, software, 99_999, '2025-06-01'),
        e(b.id, other, 777_700, '2026-03-01'),
      ])
      .execute();
    await db
      .insertInto('actualRevenue')
      .values({
        companyId: a.id,
        source: 'Roaming',
        amountCents: 1_234_500,
        revenueDate: '2026-05-01',
        description: null,
        customerReference: null,
      })
      .execute();
    await db
      .insertInto('budgets')
      .values({
        companyId: a.id,
        departmentId,
        categoryId: travel,
        amountCents: 400_000,
        period: 'annual',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        description: 'chat',
        status: 'active',
      })
      .execute();
    analyst = await userContext(
      db,
      (await createTestUser(db, { role: 'viewer', flags: { canAccessAnalytics: true } })).id,
    );
    scoped = await userContext(
      db,
      (await createTestUser(db, { role: 'viewer', companyId: b.id, flags: { canAccessAnalytics: true } })).id,
    );
  });
  afterAll(() => database?.destroy());

  const ask = async (ctx: ServiceContext, message: string, context?: object) =>
    answerOffline(ctx, { message, context }, NOW);

  it('totals of a named company and period, with the numbers; the note says offline; the company is remembered', async () => {
    const a = companies[2];
    const answer = await ask(analyst, `What did ${a.name} spend in 2026?`);
    expect(answer.response).toContain(`Expenses of ${a.name} for 2026: $6,000.50 across 3 expenses.`);
    expect(answer.response.endsWith(OFFLINE_NOTE)).toBe(true);
    expect(answer.context).toMatchObject({ companyId: a.id, topic: 'expenses' });
    const followUp = await ask(analyst, 'And in 2025?', answer.context);
    expect(followUp.response).toContain(`Expenses of ${a.name} for 2025: $999.99 across 1 expense.`);
    expect((await ask(analyst, `Revenue of ${a.name} this year`)).response).toContain(
      `Revenue of ${a.name} for 2026: $12,345.00 from 1 entry.`,
    );
  });

  it('top categories, budget variance, anomalies and predictions', async () => {
    const a = companies[2];
    const top = await ask(analyst, `Top categories for ${a.name} in 2026`);
    expect(top.response).toContain(`1. Chat Travel ${dialect}: $5,000.00`);
    expect(top.response).toContain(`2. Chat Software ${dialect}: $1,000.50`);
    const budget = await ask(analyst, `Is ${a.name} over budget in 2026?`);
    expect(budget.response).toContain(
      `${a.name} in 2026: budget $4,000.00, actual $6,000.50, variance $2,000.50 (50%) — over budget.`,
    );
    expect((await ask(analyst, 'How is the budget?')).response).toContain('Which company?');
    // Anomalies are read from the stored findings: before the first computation the chat says so.
    expect((await ask(analyst, `Any anomalies for ${a.name} in the last 90 days?`)).response).toContain(
      ANOMALIES_COMPUTING,
    );
    await anomalyRunSettled(db);
    await refreshExpenseAnomalies(db, { now: NOW, force: true });
    expect((await ask(analyst, `Any anomalies for ${a.name} in the last 90 days?`)).response).toContain(
      `No unusual expenses in ${a.name} over the last 90 days (computed just now).`,
    );
    expect((await ask(analyst, `Forecast the next 6 months for ${a.name}`)).response).toMatch(
      new RegExp(`^Predicted expenses of ${a.name} for the next 6 months: \\$[\\d,.]+\\.`),
    );
  });

  it('a named expense category narrows totals and predictions', async () => {
    const a = companies[2];
    expect(
      (await ask(analyst, `What did ${a.name} spend on chat travel ${dialect} in March 2026?`)).response,
    ).toContain(`Expenses of ${a.name} on Chat Travel ${dialect} for March 2026: $3,000.00 across 1 expense.`);
    expect((await ask(analyst, `Total spent on Chat Software ${dialect} in 2025`)).response).toContain(
      `on Chat Software ${dialect} for 2025: $999.99 across 1 expense.`,
    );
    const forecast = await ask(analyst, `Forecast the next 3 months of Chat Software ${dialect} for ${a.name}`);
    expect(forecast.response).toMatch(
      new RegExp(`^Predicted expenses of ${a.name} on Chat Software ${dialect} for the next 3 months`),
    );
    expect(forecast.response).not.toContain('Chat Travel');
    // Another company's category is not recognised for a scoped asker.
    expect((await ask(scoped, `Spent on Chat Travel ${dialect} in 2026`)).response).not.toContain('Chat Travel');
  });

  it('a scoped asker only ever hears about their own company, even when naming another', async () => {
    const [a, b] = [companies[2], companies[3]];
    const answer = await ask(scoped, `What did ${a.name} spend in 2026?`);
    expect(answer.response).toContain(`Expenses of ${b.name} for 2026: $7,777.00 across 1 expense.`);
    expect(answer.response).not.toContain('6,000.50');
    expect((await ask(scoped, 'top categories')).response).not.toContain('Chat Travel');
  });

  it('unknown questions get the list; an empty message is a 400; no analytics permission is a 403', async () => {
    const help = await ask(analyst, 'Tell me a joke');
    for (const line of CAPABILITIES) expect(help.response).toContain(line);
    expect((await rejection(answerOffline(analyst, { message: '   ' }, NOW))).status).toBe(400);
    const plain = await userContext(db, (await createTestUser(db, { role: 'viewer' })).id);
    expect((await rejection(answerOffline(plain, { message: 'total' }, NOW))).status).toBe(403);
  });
});
