// Totals from the books on every test dialect: each grouping, the category filter, the scope,
// and bad requests.
import { beforeAll, describe, expect, it } from 'vitest';
import { useAnalyticsDatabase } from '../../../test/analytics-fixture.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { ledgerTotals } from './ai-books.server.ts';
import type { ServiceContext } from '../../platform/context.ts';

describe.each(TEST_DIALECTS)('ledger totals on %s', (dialect) => {
  const f = useAnalyticsDatabase(dialect);
  let analyst: ServiceContext;
  let scoped: ServiceContext;
  let a: { id: number; name: string };
  let b: { id: number; name: string };

  beforeAll(async () => {
    ({ analyst, scoped, a, b } = f);
    const { db, departmentId } = f;
    const travel = (
      await db
        .insertInto('expenseCategories')
        .values({ companyId: a.id, departmentId, name: 'Books Travel' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const rent = (
      await db
        .insertInto('expenseCategories')
        .values({ companyId: a.id, departmentId, name: 'Books Rent' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const e = (categoryId: number, amountCents: number, expenseDate: string) => ({
      companyId: a.id,
      departmentId,
      categoryId,
      amountCents,
      expenseDate,
      description: 'books',
      vendor: null,
    });
    await db
      .insertInto('actualExpenses')
      .values([
        e(travel, 10_000, '2026-01-31'),
        e(travel, 20_000, '2026-02-01'),
        e(rent, 300_000, '2026-02-15'),
        e(rent, 1, '2025-12-31'),
      ])
      .execute();
    const r = (companyId: number, source: string, amountCents: number, revenueDate: string) => ({
      companyId,
      source,
      amountCents,
      revenueDate,
      description: null,
      customerReference: null,
    });
    await db
      .insertInto('actualRevenue')
      .values([
        r(a.id, 'Books Sales', 50_000, '2026-01-10'),
        r(a.id, 'Books Fees', 7_500, '2026-02-10'),
        r(b.id, 'Books Sales', 99_900, '2026-02-11'),
      ])
      .execute();
  });

  const year = { from: '2026-01-01', to: '2026-12-31' };

  it('sums expenses in total, by category, by month, for one category', async () => {
    expect(await ledgerTotals(analyst, { ledger: 'expenses', companyId: a.id, ...year })).toEqual({
      ledger: 'expenses',
      companyId: a.id,
      ...year,
      total: 3_300,
      count: 3,
      groups: [],
    });
    expect(
      (await ledgerTotals(analyst, { ledger: 'expenses', companyId: a.id, ...year, groupBy: 'category' })).groups,
    ).toEqual([
      { label: 'Books Rent', amount: 3_000, count: 1 },
      { label: 'Books Travel', amount: 300, count: 2 },
    ]);
    expect(
      (await ledgerTotals(analyst, { ledger: 'expenses', companyId: a.id, ...year, groupBy: 'month' })).groups,
    ).toEqual([
      { label: '2026-01', amount: 100, count: 1 },
      { label: '2026-02', amount: 3_200, count: 2 },
    ]);
    expect(
      await ledgerTotals(analyst, { ledger: 'expenses', companyId: a.id, ...year, category: 'Books Travel' }),
    ).toMatchObject({ total: 300, count: 2 });
  });

  it('sums revenue by source and by company; a scoped reader gets their own company only', async () => {
    expect(
      (await ledgerTotals(analyst, { ledger: 'revenue', ...year, groupBy: 'source' })).groups.filter((g) =>
        g.label.startsWith('Books'),
      ),
    ).toEqual([
      { label: 'Books Sales', amount: 1_499, count: 2 },
      { label: 'Books Fees', amount: 75, count: 1 },
    ]);
    const own = await ledgerTotals(scoped, { ledger: 'revenue', ...year, groupBy: 'company' });
    expect(own).toMatchObject({ companyId: b.id, groups: [{ label: b.name }] });
    await expect(ledgerTotals(scoped, { ledger: 'revenue', companyId: a.id, ...year })).rejects.toMatchObject({
      kind: 'notFound',
    });
  });

  it('refuses bad requests with field errors', async () => {
    for (const bad of [
      { ledger: 'wages', ...year },
      { ledger: 'expenses', from: '2026-02-01', to: '2026-01-01' },
      { ledger: 'revenue', ...year, groupBy: 'category' },
      { ledger: 'expenses', ...year, groupBy: 'source' },
      { ledger: 'revenue', ...year, category: 'Books Travel' },
      { ledger: 'expenses', from: 'yesterday', to: '2026-01-01' },
    ])
      await expect(ledgerTotals(analyst, bad)).rejects.toMatchObject({ kind: 'invalid' });
  });
});
