// The generic resource service over a real database, on every test dialect: search (case-
// insensitive, over joined names, LIKE wildcards taken literally), the dropdown filter, paging
// edges, stable sorts with the id tie-break, and recordBatches' cursor batches.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { ownerId, userContext } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import { rejection } from '../../../test/assertions.ts';
import {
  actualRevenue,
  budgets,
  companies,
  departments,
  expenseCategories,
  revenueProjections,
  subscriberMetrics,
} from '../../features/resources.ts';
import type { ResourceDef } from './define.ts';
import type { Db, ServiceContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { lastPage } from '../lib/paging.ts';
import { screenListQuery, screenListState } from './list-query.ts';
import { LIST_PAGING } from './resource-list.server.ts';
import {
  createRecord,
  deleteRecord,
  formChoices,
  getRecord,
  listRecords,
  recordBatches,
  resolveSort,
  updateRecord,
  type ApiRow,
  type ListQuery,
} from './resources.server.ts';

const ALL = { limit: 1000, offset: 0 };

/** Every row of recordBatches' batches, in order. */
async function collect(batches: AsyncGenerator<ApiRow[]>): Promise<ApiRow[]> {
  const rows: ApiRow[] = [];
  for await (const batch of batches) rows.push(...batch);
  return rows;
}

const ids = (rows: ApiRow[]) => rows.map((r) => r.id);

/** Rows ordered by a key then id, both in one direction (the service's documented order). */
function expectedOrder(rows: ApiRow[], key: string, dir: 'asc' | 'desc'): number[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const x = a[key] as string | number;
      const y = b[key] as string | number;
      if (x < y) return -sign;
      if (x > y) return sign;
      return (a.id - b.id) * sign;
    })
    .map((r) => r.id);
}

describe.each(TEST_DIALECTS)('generic resource service on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let ctx: ServiceContext;
  const tag = Math.random().toString(36).slice(2, 8);
  let serial = 0;
  const unique = (prefix: string) => `${prefix} ${tag}-${++serial}`;

  const departmentId = async (name: string) =>
    (await db.selectFrom('departments').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const newCompany = async (type = 'marketing', name = unique('Company')) =>
    (await createRecord(ctx, companies, { name, type, description: null })).id;
  const list = (def: ResourceDef, query: Partial<ListQuery>) => listRecords(ctx, def, { ...ALL, ...query });

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    ctx = await userContext(db, await ownerId(db));
  });
  afterAll(() => database?.destroy());

  describe('search', () => {
    let companyId: number;
    let companyName: string;
    let finance: number;
    let marketing: number;
    const byCategory = new Map<string, number>();

    beforeAll(async () => {
      companyName = unique('Searchable Holdings');
      companyId = await newCompany('marketing', companyName);
      finance = await departmentId('Finance');
      marketing = await departmentId('Marketing');
      const names = ['Alpha_Beta', 'AlphaXBeta', '50% Off', '50 Off', 'Back\\slash', 'Plain'];
      for (const [i, name] of names.entries()) {
        const category = await createRecord(ctx, expenseCategories, {
          companyId,
          departmentId: i === 5 ? marketing : finance,
          name,
        });
        const budget = await createRecord(ctx, budgets, {
          departmentId: i === 5 ? marketing : finance,
          categoryId: category.id,
          amount: 100 + i,
          period: 'monthly',
          startDate: `2026-0${i + 1}-01`,
          endDate: `2026-0${i + 1}-28`,
          description: i === 4 ? 'Ordinary text' : null,
        });
        byCategory.set(name, budget.id);
      }
    });

    const search = async (q: string) => {
      const { rows, total } = await list(budgets, { q, companyId });
      expect(total).toBe(rows.length);
      return rows.map((r) => r.categoryName).sort();
    };

    it('is case-insensitive and matches joined category, department and company names', async () => {
      expect(await search('alpha')).toEqual(['AlphaXBeta', 'Alpha_Beta']);
      expect(await search('ALPHA_beta')).toEqual(['Alpha_Beta']);
      expect(await search('mArKeTiNg')).toEqual(['Plain']); // department d.name
      expect(await search('FINANCE')).toHaveLength(5);
      expect(await search(companyName.toUpperCase())).toHaveLength(6); // company c.name
      expect(await search('ordinary')).toEqual(['Back\\slash']); // description
    });

    it('treats %, _ and \\ literally', async () => {
      expect(await search('%')).toEqual(['50% Off']);
      expect(await search('50%')).toEqual(['50% Off']);
      expect(await search('50 off')).toEqual(['50 Off']);
      expect(await search('_')).toEqual(['Alpha_Beta']);
      expect(await search('a_b')).toEqual(['Alpha_Beta']);
      expect(await search('\\')).toEqual(['Back\\slash']);
      expect(await search('%%')).toEqual([]);
    });

    it('trims the term; an empty or blank term lists everything; dates are searchable as text', async () => {
      expect(await search('  plain  ')).toEqual(['Plain']);
      expect(await search('')).toHaveLength(6);
      expect(await search('   ')).toHaveLength(6);
      expect(await search('2026-03')).toEqual(['50% Off']);
      expect(await search('no such thing at all')).toEqual([]);
    });

    it('searches the declared columns of other resources too', async () => {
      const categories = await list(expenseCategories, { q: 'finance', companyId });
      expect(categories.total).toBe(5); // department name of the category
      expect(categories.rows.every((r) => r.departmentName === 'Finance')).toBe(true);
      const found = await list(departments, { q: 'NETWORK OPER' });
      expect(found.rows.map((r) => r.name)).toEqual(['Network Operations']);
      const self = await list(companies, { q: companyName.toLowerCase() });
      expect(self.rows.map((r) => r.id)).toEqual([companyId]);
    });

    it('company filters do not apply to shared departments (no company_id column)', async () => {
      const all = await list(departments, {});
      expect(all.total).toBeGreaterThanOrEqual(16);
      for (const query of [
        { companyId },
        { company: companyName },
        { companyType: 'marketing' },
        { source: 'Retainers' },
      ]) {
        expect((await list(departments, query)).total).toBe(all.total);
      }
      expect(await collect(recordBatches(ctx, departments, { companyId }, 5))).toHaveLength(all.total);
    });

    it('the dropdown filter narrows by its column; nonsense matches nothing', async () => {
      const marketingOnly = await list(budgets, { filter: String(marketing), companyId });
      expect(marketingOnly.rows.map((r) => r.categoryName)).toEqual(['Plain']);
      expect(marketingOnly.total).toBe(1);
      expect((await list(budgets, { filter: String(finance), companyId })).total).toBe(5);
      expect((await list(budgets, { filter: '-1', companyId })).total).toBe(0);
      // Combined with a search term.
      expect((await list(budgets, { filter: String(finance), q: 'alpha', companyId })).total).toBe(2);
      expect((await list(budgets, { filter: String(marketing), q: 'alpha', companyId })).total).toBe(0);
    });

    it('other dropdown filters: companies by type, revenue by source, metrics by name', async () => {
      const fintech = await list(companies, { filter: 'fintech' });
      expect(fintech.rows.length).toBeGreaterThan(0);
      expect(fintech.rows.every((r) => r.type === 'fintech')).toBe(true);

      const revenueCompany = await newCompany();
      for (const source of ['Retainers', 'Retainers', 'Campaign Fees']) {
        await createRecord(ctx, actualRevenue, {
          companyId: revenueCompany,
          source,
          amount: 10,
          revenueDate: '2026-01-05',
        });
      }
      expect((await list(actualRevenue, { filter: 'Retainers', companyId: revenueCompany })).total).toBe(2);
      expect((await list(actualRevenue, { source: 'Campaign Fees', companyId: revenueCompany })).total).toBe(1);
      expect((await list(actualRevenue, { filter: 'retainers', companyId: revenueCompany })).total).toBe(0); // exact match

      const mobile = await newCompany('mobile');
      await createRecord(ctx, subscriberMetrics, {
        companyId: mobile,
        companyType: 'mobile',
        metricName: 'arpu',
        metricValue: 4.5,
        period: 'monthly',
        recordDate: '2026-01-31',
      });
      await createRecord(ctx, subscriberMetrics, {
        companyId: mobile,
        companyType: 'mobile',
        metricName: 'sms_count',
        metricValue: 1000,
        period: 'monthly',
        recordDate: '2026-01-31',
      });
      const arpu = await list(subscriberMetrics, { filter: 'arpu', companyId: mobile });
      expect(arpu.rows).toHaveLength(1);
      expect(arpu.rows[0]).toMatchObject({ metricName: 'arpu', metricValue: 4.5 });
    });
  });

  describe('paging, sorting and iterating', () => {
    let empty: number;
    let ten: number;
    let eleven: number;
    // Amounts with ties so that sorted runs cross page and batch boundaries.
    const AMOUNTS = [5, 5, 5, 3, 3, 8, 8, 8, 8, 1, 5];
    const DATES = [
      '2026-01-01',
      '2026-01-01',
      '2026-02-01',
      '2026-02-01',
      '2026-02-01',
      '2026-03-01',
      '2026-01-01',
      '2026-04-01',
      '2026-04-01',
      '2026-04-01',
      '2026-05-01',
    ];

    beforeAll(async () => {
      empty = await newCompany();
      ten = await newCompany();
      eleven = await newCompany();
      for (let i = 0; i < 10; i++) {
        await createRecord(ctx, actualRevenue, {
          companyId: ten,
          source: 'Retainers',
          amount: 10 + i,
          revenueDate: `2025-0${(i % 9) + 1}-15`,
        });
      }
      for (let i = 0; i < 11; i++) {
        await createRecord(ctx, actualRevenue, {
          companyId: eleven,
          source: i % 2 ? 'Retainers' : 'Campaign Fees',
          amount: AMOUNTS[i],
          revenueDate: DATES[i],
        });
      }
    });

    const page = (companyId: number, pageParam: string, extra = '') => {
      const state = screenListState(actualRevenue, new URLSearchParams(`page=${pageParam}${extra}`));
      return listRecords(ctx, actualRevenue, screenListQuery(actualRevenue, state, { companyId }));
    };

    it('0 rows: page 1 is empty, total 0, last page 1', async () => {
      const first = await page(empty, '1');
      expect(first).toEqual({ rows: [], total: 0 });
      expect(lastPage(first.total)).toBe(1);
      expect(await page(empty, '5')).toEqual({ rows: [], total: 0 });
    });

    it('10 rows: one full page; page 2 is empty with the right total', async () => {
      const first = await page(ten, '1');
      expect(first.rows).toHaveLength(10);
      expect(first.total).toBe(10);
      expect(lastPage(first.total)).toBe(1);
      expect(await page(ten, '2')).toEqual({ rows: [], total: 10 });
    });

    it('11 rows: 10 then 1; beyond the end is [] with the total', async () => {
      const first = await page(eleven, '1');
      const second = await page(eleven, '2');
      expect(first.rows).toHaveLength(10);
      expect(second.rows).toHaveLength(1);
      expect(first.total).toBe(11);
      expect(second.total).toBe(11);
      expect(lastPage(11)).toBe(2);
      expect(new Set([...ids(first.rows), ...ids(second.rows)]).size).toBe(11);
      expect(await page(eleven, '3')).toEqual({ rows: [], total: 11 });
      expect(await list(actualRevenue, { companyId: eleven, offset: 1_000_000 })).toEqual({ rows: [], total: 11 });
      // A page that starts inside the list and runs past its end.
      expect((await list(actualRevenue, { companyId: eleven, offset: 9, limit: 10 })).rows).toHaveLength(2);
    });

    it.each([
      ['in one query', 200],
      ['ids first (deep pages)', 0],
    ])('sorts asc and desc with the id tie-break, the same across pages, %s', async (_way, directPageOffset) => {
      Object.assign(LIST_PAGING, { directPageOffset });
      onTestFinished(() => {
        LIST_PAGING.directPageOffset = 200;
      });
      const all = (await list(actualRevenue, { companyId: eleven })).rows;
      expect(all).toHaveLength(11);
      for (const [sort, key] of [
        ['amount', 'amount'],
        ['revenueDate', 'revenueDate'],
        ['source', 'source'],
      ] as const) {
        for (const dir of ['asc', 'desc'] as const) {
          const expected = expectedOrder(all, key, dir);
          const whole = await list(actualRevenue, { companyId: eleven, sort, dir });
          expect(ids(whole.rows), `${sort} ${dir}`).toEqual(expected);
          const extra = `&sort=${sort}&dir=${dir}`;
          const paged = [...(await page(eleven, '1', extra)).rows, ...(await page(eleven, '2', extra)).rows];
          expect(ids(paged), `${sort} ${dir} paged`).toEqual(expected);
          // Small pages cut through runs of equal values.
          const small: ApiRow[] = [];
          for (let offset = 0; offset < 11; offset += 3)
            small.push(...(await list(actualRevenue, { companyId: eleven, sort, dir, limit: 3, offset })).rows);
          expect(ids(small), `${sort} ${dir} by 3`).toEqual(expected);
        }
      }
    });

    it("the default order is the declaration's (revenue date, newest first); a sort without a direction is ascending", async () => {
      const all = (await list(actualRevenue, { companyId: eleven })).rows;
      expect(ids(all)).toEqual(expectedOrder(all, 'revenueDate', 'desc'));
      expect(ids((await list(actualRevenue, { companyId: eleven, sort: 'amount' })).rows)).toEqual(
        expectedOrder(all, 'amount', 'asc'),
      );
      // An unknown key falls back to the default sort (the API rejects it earlier).
      expect(ids((await list(actualRevenue, { companyId: eleven, sort: 'nope' })).rows)).toEqual(
        expectedOrder(all, 'revenueDate', 'desc'),
      );
      expect(resolveSort(actualRevenue, null, 'asc')).toEqual({
        key: 'revenueDate',
        columns: ['revenueDate', 'id'],
        dir: 'asc',
      });
      expect(resolveSort(actualRevenue, 'amount', null)).toEqual({
        key: 'amount',
        columns: ['amountCents', 'id'],
        dir: 'asc',
      });
      expect(resolveSort(actualRevenue, 'constructor', null)).toEqual({
        key: 'revenueDate',
        columns: ['revenueDate', 'id'],
        dir: 'desc',
      });
    });

    it('recordBatches yields every filtered row once, in list order, across batches of 3', async () => {
      for (const sort of [null, 'amount', 'revenueDate', 'source'] as const) {
        for (const dir of [null, 'asc', 'desc'] as const) {
          const expected = ids((await list(actualRevenue, { companyId: eleven, sort, dir })).rows);
          const got = ids(await collect(recordBatches(ctx, actualRevenue, { companyId: eleven, sort, dir }, 3)));
          expect(got, `${sort} ${dir}`).toEqual(expected);
          expect(new Set(got).size).toBe(11);
        }
      }
      // Filters apply; an exact multiple of the batch size; nothing at all.
      const retainers = ids(
        (await list(actualRevenue, { companyId: eleven, filter: 'Retainers', sort: 'amount' })).rows,
      );
      expect(retainers).toHaveLength(5);
      expect(
        ids(
          await collect(
            recordBatches(ctx, actualRevenue, { companyId: eleven, filter: 'Retainers', sort: 'amount' }, 3),
          ),
        ),
      ).toEqual(retainers);
      expect(await collect(recordBatches(ctx, actualRevenue, { companyId: ten }, 5))).toHaveLength(10);
      expect(await collect(recordBatches(ctx, actualRevenue, { companyId: empty }, 3))).toEqual([]);
      // Rows are the API's: decimal amounts and joined names.
      const [first] = await collect(
        recordBatches(ctx, actualRevenue, { companyId: eleven, sort: 'amount', dir: 'asc' }, 3),
      );
      expect(first).toMatchObject({ amount: 1, companyId: eleven });
      expect(typeof first.companyName).toBe('string');
    });

    describe('over a creation-time sort', () => {
      const prefix = unique('IterDept');
      beforeAll(async () => {
        for (let i = 0; i < 8; i++) await createRecord(ctx, departments, { name: `${prefix} ${i}` });
      });
      afterAll(async () => {
        const rows = await db.selectFrom('departments').select('id').where('name', 'like', `${prefix}%`).execute();
        for (const row of rows) await deleteRecord(ctx, departments, row.id);
      });
      const check = async (dir: 'asc' | 'desc') => {
        const expected = ids((await list(departments, { q: prefix, sort: 'createdAt', dir })).rows);
        expect(expected).toHaveLength(8);
        const got = ids(await collect(recordBatches(ctx, departments, { q: prefix, sort: 'createdAt', dir }, 3)));
        expect(got, `createdAt ${dir}`).toEqual(expected);
      };

      // PostgreSQL stores microseconds but reads milliseconds: batch boundaries must not repeat rows.
      it('ascending: each row exactly once across batches of 3', () => check('asc'));
      it('descending: each row exactly once across batches of 3', () => check('desc'));
    });
  });

  describe('records', () => {
    it('create, read, partial update and delete round-trip money as decimals stored in cents', async () => {
      const companyId = await newCompany();
      const created = await createRecord(ctx, revenueProjections, {
        companyId,
        source: 'Retainers',
        amount: 1234.56,
        period: 'quarterly',
        startDate: '2026-01-01',
        endDate: '2026-03-31',
      });
      expect(created).toMatchObject({
        companyId,
        amount: 1234.56,
        status: 'active',
        description: null,
        companyType: 'marketing',
      });
      const stored = await db
        .selectFrom('revenueProjections')
        .select('amountCents')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(Number(stored.amountCents)).toBe(123456);
      const updated = await updateRecord(ctx, revenueProjections, created.id, { amount: 0.07 });
      expect(updated).toMatchObject({
        amount: 0.07,
        source: 'Retainers',
        startDate: '2026-01-01',
        endDate: '2026-03-31',
      });
      expect(await getRecord(ctx, revenueProjections, created.id)).toEqual(updated);
      const error = await rejection(updateRecord(ctx, revenueProjections, created.id, { startDate: '2026-04-01' }));
      expect(error).toBeInstanceOf(DomainError);
      expect(error.errors).toEqual([{ field: 'endDate', message: 'End date must be on or after the start date' }]);
      await deleteRecord(ctx, revenueProjections, created.id);
      expect((await rejection(getRecord(ctx, revenueProjections, created.id))).kind).toBe('notFound');
    });

    it('a non-object body is one "body" field error', async () => {
      for (const body of [null, [], 'text', 5]) {
        const error = await rejection(createRecord(ctx, departments, body));
        expect(error.kind).toBe('invalid');
        expect(error.errors).toEqual([{ field: 'body', message: 'Expected a JSON object' }]);
      }
    });
  });

  describe('permissions and company scope', () => {
    let scoped: ServiceContext;
    let viewer: ServiceContext;
    let mine: number;
    let theirs: number;
    let theirRow: number;

    beforeAll(async () => {
      mine = await newCompany('fintech');
      theirs = await newCompany('fintech');
      scoped = await userContext(db, (await createTestUser(db, { role: 'editor', companyId: mine })).id);
      viewer = await userContext(db, (await createTestUser(db, { role: 'viewer' })).id);
      await createRecord(ctx, actualRevenue, {
        companyId: mine,
        source: 'Card Interchange',
        amount: 1,
        revenueDate: '2026-01-01',
      });
      theirRow = (
        await createRecord(ctx, actualRevenue, {
          companyId: theirs,
          source: 'Card Interchange',
          amount: 2,
          revenueDate: '2026-01-01',
        })
      ).id;
    });

    it('a scoped user lists only their company, even when asking for another', async () => {
      const { rows, total } = await listRecords(scoped, actualRevenue, { ...ALL });
      expect(total).toBe(1);
      expect(rows[0].companyId).toBe(mine);
      expect(await listRecords(scoped, actualRevenue, { ...ALL, companyId: theirs })).toEqual({ rows: [], total: 0 });
      expect(ids((await listRecords(scoped, companies, { ...ALL })).rows)).toEqual([mine]);
      expect(await collect(recordBatches(scoped, actualRevenue, {}, 3))).toHaveLength(1);
    });

    it("another company's row is not found; its company cannot be chosen", async () => {
      expect((await rejection(getRecord(scoped, actualRevenue, theirRow))).kind).toBe('notFound');
      expect((await rejection(updateRecord(scoped, actualRevenue, theirRow, { amount: 3 }))).kind).toBe('notFound');
      expect((await rejection(deleteRecord(scoped, actualRevenue, theirRow))).kind).toBe('forbidden'); // editors never delete
      const error = await rejection(
        createRecord(scoped, actualRevenue, { companyId: theirs, source: 'X', amount: 1, revenueDate: '2026-01-01' }),
      );
      expect(error.errors).toEqual([{ field: 'companyId', message: 'Company not found' }]);
    });

    it('viewers read but never write; form choices follow the scope', async () => {
      expect((await listRecords(viewer, actualRevenue, { ...ALL, companyId: theirs })).total).toBe(1);
      expect((await rejection(createRecord(viewer, actualRevenue, {}))).kind).toBe('forbidden');
      expect((await rejection(updateRecord(viewer, actualRevenue, theirRow, {}))).kind).toBe('forbidden');
      expect((await rejection(deleteRecord(viewer, actualRevenue, theirRow))).kind).toBe('forbidden');
      const choices = await formChoices(scoped, budgets);
      expect(choices.companies.map((c) => c.id)).toEqual([mine]);
      expect(choices.departments.length).toBeGreaterThanOrEqual(16);
      expect(choices.filter).toEqual(choices.departments);
      const all = await formChoices(ctx, budgets);
      expect(all.categories.length).toBeGreaterThan(choices.categories.length);
    });
  });
});
