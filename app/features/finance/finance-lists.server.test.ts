// The finance lists where rows of several companies share department and category names: the
// Company dropdown from the URL (within the user's company scope), search by company name and
// by amount, categories offered grouped by company and department and narrowed by the chosen
// department, and a category of another department refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { ownerId, userContext } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import { rejection } from '../../../test/assertions.ts';
import {
  actualExpenses,
  actualRevenue,
  budgets,
  companies,
  expenseCategories,
  revenueProjections,
} from '../resources.ts';
import type { ResourceDef } from '../../platform/resources/define.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { screenListQuery, screenListState } from '../../platform/resources/list-query.ts';
import { searchedCents } from '../../platform/resources/resource-list.server.ts';
import { createRecord, formChoices, listRecords, updateRecord } from '../../platform/resources/resources.server.ts';

describe('searchedCents', () => {
  it.each([
    ['1234.56', 123456],
    ['1,234.56', 123456],
    ['1234', 123400],
    ['1,234', 123400],
    ['0.5', 50],
    ['12,345,678.9', 1234567890],
  ])('%s → %i cents', (q, cents) => expect(searchedCents(q)).toBe(cents));

  it.each(['', 'abc', '12,34.56', '1234.567', '1.2.3', '-5', '0', '99999999999', ' 1234'])(
    '%j is not an amount',
    (q) => {
      expect(searchedCents(q)).toBeNull();
    },
  );
});

describe.each(TEST_DIALECTS)('finance lists across companies on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let ctx: ServiceContext;
  const tag = Math.random().toString(36).slice(2, 8);
  const names = { a: `Northwind ${tag}`, b: `Southwind ${tag}` };
  const ids = { a: 0, b: 0, marketing: 0, finance: 0, catA: 0, catB: 0, loose: 0 };
  // Amounts no other test row has.
  const amount = 4321 + Number.parseInt(tag.slice(0, 3), 36) / 100;
  const typed = amount.toFixed(2);
  const grouped = Number(typed).toLocaleString('en-US', { minimumFractionDigits: 2 });

  const departmentId = async (name: string) =>
    (await db.selectFrom('departments').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const urlList = (def: ResourceDef, search: string, as = ctx) =>
    listRecords(as, def, screenListQuery(def, screenListState(def, new URLSearchParams(search))));

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    ctx = await userContext(db, await ownerId(db));
    ids.a = (await createRecord(ctx, companies, { name: names.a, type: 'marketing', description: null })).id;
    ids.b = (await createRecord(ctx, companies, { name: names.b, type: 'marketing', description: null })).id;
    ids.marketing = await departmentId('Marketing');
    ids.finance = await departmentId('Finance');
    // The same department and category name in both companies.
    ids.catA = (
      await createRecord(ctx, expenseCategories, {
        companyId: ids.a,
        departmentId: ids.marketing,
        name: 'Media Buying',
      })
    ).id;
    ids.catB = (
      await createRecord(ctx, expenseCategories, {
        companyId: ids.b,
        departmentId: ids.marketing,
        name: 'Media Buying',
      })
    ).id;
    ids.loose = (
      await createRecord(ctx, expenseCategories, { companyId: ids.a, departmentId: null, name: 'Sundries' })
    ).id;
    for (const [categoryId, value] of [
      [ids.catA, amount],
      [ids.catB, 17],
    ] as const) {
      const common = { departmentId: ids.marketing, categoryId, amount: value, description: 'Spring campaign' };
      await createRecord(ctx, budgets, {
        ...common,
        period: 'monthly',
        startDate: '2026-04-01',
        endDate: '2026-04-30',
      });
      await createRecord(ctx, actualExpenses, { ...common, expenseDate: '2026-04-15', vendor: 'Ad Network' });
    }
    await createRecord(ctx, revenueProjections, {
      companyId: ids.a,
      source: 'Retainers',
      amount,
      period: 'monthly',
      startDate: '2026-04-01',
      endDate: '2026-04-30',
    });
    await createRecord(ctx, actualRevenue, {
      companyId: ids.b,
      source: 'Retainers',
      amount,
      revenueDate: '2026-04-15',
    });
  });
  afterAll(() => database?.destroy());

  it('the Company dropdown narrows the list from the URL; its rows name their company', async () => {
    for (const def of [budgets, actualExpenses]) {
      const both = await urlList(def, `q=${encodeURIComponent(tag)}`);
      expect(both.rows.map((r) => r.companyName).sort(), def.key).toEqual([names.a, names.b]);
      const onlyA = await urlList(def, `companyId=${ids.a}&q=media`);
      expect(
        onlyA.rows.map((r) => r.companyName),
        def.key,
      ).toEqual([names.a]);
      expect(onlyA.total).toBe(1);
      const unfilteredA = await urlList(def, `companyId=${ids.a}`);
      expect(unfilteredA.total, def.key).toBe(1); // the counted total of one company
      expect((await urlList(def, 'companyId=nonsense')).total, def.key).toBe(0);
    }
    expect((await urlList(revenueProjections, `companyId=${ids.a}`)).rows.map((r) => r.companyName)).toEqual([names.a]);
    expect((await urlList(actualRevenue, `companyId=${ids.a}`)).total).toBe(0);
  });

  it("the dropdown never widens a user's company scope", async () => {
    const user = await createTestUser(db, {
      role: 'viewer',
      companyId: ids.a,
      flags: { canAccessFinancialData: true },
    });
    const scoped = await userContext(db, user.id);
    expect((await urlList(budgets, '', scoped)).rows.map((r) => r.companyName)).toEqual([names.a]);
    expect((await urlList(budgets, `companyId=${ids.b}`, scoped)).total).toBe(0);
    // The dropdown offers the companies the user sees, with no form open.
    const choices = await formChoices(scoped, budgets, {}, { form: false });
    expect(choices.companies.map((c) => c.label)).toEqual([names.a]);
    const all = await formChoices(ctx, budgets, {}, { form: false });
    expect(all.companies.map((c) => c.label)).toEqual(expect.arrayContaining([names.a, names.b]));
  });

  it('search matches the company name', async () => {
    for (const def of [budgets, actualExpenses]) {
      const found = await urlList(def, `q=${encodeURIComponent(names.b.toLowerCase())}`);
      expect(
        found.rows.map((r) => r.companyName),
        def.key,
      ).toEqual([names.b]);
    }
  });

  it('search matches an amount typed as 1234.56 or 1,234.56', async () => {
    expect(grouped).toContain(',');
    for (const def of [budgets, actualExpenses, revenueProjections, actualRevenue]) {
      for (const q of [typed, grouped]) {
        const everyCompany = await urlList(def, `q=${encodeURIComponent(q)}`);
        expect(
          everyCompany.rows.map((r) => r.amount),
          `${def.key} ${q}`,
        ).toEqual([amount]);
        expect(everyCompany.total).toBe(1);
        const withCompany = await urlList(def, `q=${encodeURIComponent(q)}&companyId=${ids.b}`);
        expect(withCompany.total, `${def.key} ${q} in b`).toBe(def === actualRevenue ? 1 : 0);
      }
    }
    // Text search still works beside it.
    expect((await urlList(actualExpenses, `q=spring campaign&companyId=${ids.a}`)).total).toBe(1);
  });

  it('offers categories grouped by company and department, each with the department that narrows it', async () => {
    const { categories } = await formChoices(ctx, budgets, {}, { form: true });
    const mine = categories.filter((c) => [ids.catA, ids.catB, ids.loose].includes(c.id!));
    expect(
      mine
        .map(({ label, group, narrow }) => ({ label, group, narrow }))
        .sort((x, y) => x.group!.localeCompare(y.group!)),
    ).toEqual([
      { label: 'Sundries', group: names.a, narrow: '' },
      { label: 'Media Buying', group: `${names.a} · Marketing`, narrow: String(ids.marketing) },
      { label: 'Media Buying', group: `${names.b} · Marketing`, narrow: String(ids.marketing) },
    ]);
  });

  it('refuses a category of another department; one without a department goes with any', async () => {
    const base = { amount: 5, period: 'monthly', startDate: '2026-05-01', endDate: '2026-05-31' };
    for (const def of [budgets, actualExpenses]) {
      const fields = def === budgets ? base : { amount: 5, expenseDate: '2026-05-02', description: 'Mismatch' };
      const error = await rejection(
        createRecord(ctx, def, { ...fields, departmentId: ids.finance, categoryId: ids.catA }),
      );
      expect(error, def.key).toMatchObject({
        kind: 'invalid',
        errors: [{ field: 'categoryId', message: 'Category does not belong to the chosen department' }],
      });
      const loose = await createRecord(ctx, def, { ...fields, departmentId: ids.finance, categoryId: ids.loose });
      expect(loose.companyId).toBe(ids.a);
      // An update that moves the department away from the category's.
      const row = await createRecord(ctx, def, { ...fields, departmentId: ids.marketing, categoryId: ids.catB });
      const moved = await rejection(updateRecord(ctx, def, row.id, { departmentId: ids.finance }));
      expect(moved).toMatchObject({ kind: 'invalid', errors: [{ field: 'categoryId' }] });
    }
  });
});
