// A read-only resource (a log) over the generic service, on every test dialect: it lists,
// searches, filters, sorts, pages and exports like a writable one, and every write is refused
// whoever asks, with nothing written. Declared in test/read-only-resource.ts over budgets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../test/assertions.ts';
import { ownerId, userContext, noEngine } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { budgetLog } from '../../../test/read-only-resource.ts';
import { budgets, companies, expenseCategories } from '../../features/resources.ts';
import { systemActor, type Db, type ServiceContext } from '../context.ts';
import { exportColumns } from './resource-csv.server.ts';
import {
  createRecord,
  deleteRecord,
  formChoices,
  getRecord,
  listRecords,
  recordBatches,
  updateRecord,
  type ApiRow,
} from './resources.server.ts';

const ALL = { limit: 1000, offset: 0 };

describe.each(TEST_DIALECTS)('read-only resource on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let owner: ServiceContext;
  let system: ServiceContext;
  let companyId: number;
  let finance: number;
  let marketing: number;
  const budgetIds: number[] = [];

  const auditRows = async () =>
    Number(
      (
        await db
          .selectFrom('auditLogs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    owner = await userContext(db, await ownerId(db));
    system = { db, actor: systemActor('cli'), meta: {}, runtime: noEngine() };
    const departmentId = async (name: string) =>
      (await db.selectFrom('departments').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    finance = await departmentId('Finance');
    marketing = await departmentId('Marketing');
    companyId = (await createRecord(owner, companies, { name: `Log Holdings ${dialect}`, type: 'marketing' })).id;
    for (const [i, name] of ['Rent', 'Travel', 'Software'].entries()) {
      const category = await createRecord(owner, expenseCategories, {
        companyId,
        departmentId: i === 2 ? marketing : finance,
        name,
      });
      for (let j = 0; j < 4; j++) {
        const row = await createRecord(owner, budgets, {
          departmentId: i === 2 ? marketing : finance,
          categoryId: category.id,
          amount: 100 * (i + 1) + j,
          period: 'monthly',
          startDate: `2026-0${j + 1}-01`,
          endDate: `2026-0${j + 1}-28`,
          description: `${name} ${j}`,
        });
        budgetIds.push(row.id);
      }
    }
  });
  afterAll(() => database?.destroy());

  const list = (query: Record<string, unknown> = {}) => listRecords(owner, budgetLog, { ...ALL, companyId, ...query });

  it('lists the same rows as the writable declaration, with its joined names and decimal amounts', async () => {
    const log = await list();
    const writable = await listRecords(owner, budgets, { ...ALL, companyId });
    expect(log.total).toBe(12);
    expect(log.rows.map((r) => r.id)).toEqual(writable.rows.map((r) => r.id));
    expect(log.rows[0]).toMatchObject({
      companyId,
      categoryName: expect.any(String),
      departmentName: expect.any(String),
      amount: expect.any(Number),
    });
    expect(await getRecord(owner, budgetLog, budgetIds[0])).toMatchObject({
      id: budgetIds[0],
      amount: 100,
      categoryName: 'Rent',
    });
    // Unfiltered: the total comes from row_counts, as for the writable list.
    expect((await listRecords(owner, budgetLog, { ...ALL })).total).toBe(
      (await listRecords(owner, budgets, { ...ALL })).total,
    );
  });

  it('searches, filters, sorts and pages', async () => {
    expect((await list({ q: 'travel' })).rows.map((r) => r.categoryName)).toEqual([
      'Travel',
      'Travel',
      'Travel',
      'Travel',
    ]);
    expect((await list({ q: 'MARKETING' })).total).toBe(4);
    expect((await list({ filter: String(finance) })).total).toBe(8);
    expect((await list({ filter: String(marketing), q: 'software 3' })).rows.map((r) => r.description)).toEqual([
      'Software 3',
    ]);
    const byAmount = (await list({ sort: 'amount', dir: 'asc' })).rows.map((r) => r.amount);
    expect(byAmount).toEqual([...byAmount].sort((a, b) => Number(a) - Number(b)));
    const pages = [
      await list({ sort: 'amount', limit: 5, offset: 0 }),
      await list({ sort: 'amount', limit: 5, offset: 5 }),
      await list({ sort: 'amount', limit: 5, offset: 10 }),
    ];
    expect(pages.map((p) => p.rows.length)).toEqual([5, 5, 2]);
    expect(pages.flatMap((p) => p.rows.map((r) => r.amount))).toEqual(byAmount);
  });

  it('exports its filtered list as CSV rows in batches', async () => {
    const rows: ApiRow[] = [];
    for await (const batch of recordBatches(
      owner,
      budgetLog,
      { companyId, filter: String(finance), sort: 'amount', dir: 'desc' },
      3,
    ))
      rows.push(...batch);
    expect(rows).toHaveLength(8);
    const columns = exportColumns(budgetLog);
    expect(columns.map((c) => c.header)).toEqual([
      'ID',
      'Company',
      'Department',
      'Category',
      'Amount',
      'Period',
      'Start Date',
      'Description',
      'Created At',
      'Updated At',
    ]);
    expect(columns[4].value(rows[0])).toBe('203.00');
    expect(columns[1].value(rows[0])).toBe(`Log Holdings ${dialect}`);
  });

  it('refuses create, update and delete for every actor, and writes nothing', async () => {
    const before = await auditRows();
    const count = (await listRecords(owner, budgets, { ...ALL, companyId })).total;
    for (const ctx of [owner, system]) {
      expect(
        (
          await rejection(
            createRecord(ctx, budgetLog, {
              departmentId: finance,
              categoryId: 1,
              amount: 1,
              period: 'monthly',
              startDate: '2026-01-01',
            }),
          )
        ).kind,
      ).toBe('forbidden');
      expect((await rejection(updateRecord(ctx, budgetLog, budgetIds[0], { amount: 5 }))).kind).toBe('forbidden');
      expect((await rejection(deleteRecord(ctx, budgetLog, budgetIds[0]))).kind).toBe('forbidden');
    }
    expect(await auditRows()).toBe(before);
    expect((await listRecords(owner, budgets, { ...ALL, companyId })).total).toBe(count);
    expect((await getRecord(owner, budgets, budgetIds[0])).amount).toBe(100);
  });

  it("offers only its filter's choices: it has no form", async () => {
    const choices = await formChoices(owner, budgetLog);
    expect(choices.filter.map((c) => c.label)).toContain('Finance');
    expect(choices.departments).toEqual(choices.filter);
    expect(choices.categories).toEqual([]);
    expect(choices.companies).toEqual([]);
  });
});
