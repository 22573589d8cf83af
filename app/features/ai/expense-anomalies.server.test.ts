// Stored expense anomalies over real books on every test dialect: planted outliers, duplicates and
// first payments (judged against the vendor's whole history within the company), the run that
// does nothing while the books are unchanged, and the ranked, paged, scoped reads with their time.
import { beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../test/assertions.ts';
import { useAnalyticsDatabase } from '../../../test/analytics-fixture.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { dailyExpenses, detectExpenseAnomalies } from './ai-anomalies.server.ts';
import { anomalyRunSettled } from './anomaly-runs.server.ts';
import { currentRun, refreshExpenseAnomalies } from './expense-anomalies.server.ts';

const NOW = new Date('2026-11-20T12:00:00Z');

describe.each(TEST_DIALECTS)('stored expense anomalies on %s', (dialect) => {
  const f = useAnalyticsDatabase(dialect);
  let cloud: number;
  let equipment: number;
  let otherCategory: number;
  let otherDepartment: number;
  const ids: Record<string, number> = {};

  /** Runs now (after any run a read started in the background), for the test's day. */
  const refresh = async () => {
    await anomalyRunSettled(f.db);
    return refreshExpenseAnomalies(f.db, { now: NOW, force: true });
  };

  beforeAll(async () => {
    const { db, a, b, departmentId } = f;
    otherDepartment = (
      await db
        .selectFrom('departments')
        .select('id')
        .where('id', '!=', departmentId)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    const category = async (company: number, name: string) =>
      (
        await db
          .insertInto('expenseCategories')
          .values({ companyId: company, departmentId, name })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    cloud = await category(a.id, `Anomaly Cloud ${dialect}`);
    equipment = await category(a.id, `Anomaly Equipment ${dialect}`);
    otherCategory = await category(b.id, `Anomaly Other ${dialect}`);
    const add = async (
      name: string,
      company: number,
      categoryId: number,
      amountCents: number,
      expenseDate: string,
      vendor: string | null,
      department = departmentId,
    ) => {
      ids[name] = (
        await db
          .insertInto('actualExpenses')
          .values({
            companyId: company,
            departmentId: department,
            categoryId,
            amountCents,
            expenseDate,
            vendor,
            description: name,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    };
    // A year of ordinary cloud invoices around $1,000, from two departments.
    for (let i = 0; i < 12; i++)
      await add(
        `cloud ${i}`,
        a.id,
        cloud,
        98_000 + (i % 5) * 1_000,
        `2025-${String(11 + (i % 2)).padStart(2, '0')}-${String(1 + i).padStart(2, '0')}`,
        'Cloud Inc',
        i % 2 ? otherDepartment : departmentId,
      );
    await add('outlier', a.id, cloud, 2_000_000, '2026-11-10', 'Cloud Inc');
    await add('charge', a.id, cloud, 100_000, '2026-11-12', 'Cloud Inc', otherDepartment);
    await add('charge again', a.id, cloud, 100_000, '2026-11-12', ' cloud inc ', otherDepartment);
    // Equipment around $6,000 from Lenovo since 2025.
    for (let i = 0; i < 8; i++)
      await add(`lenovo ${i}`, a.id, equipment, 590_000 + i * 2_000, `2025-0${1 + i}-15`, 'Lenovo');
    // Dell was paid twice long before (more than a year back): a large payment now is not a first one.
    await add('dell 2024', a.id, equipment, 30_000, '2024-03-01', 'Dell');
    await add('dell 2024 again', a.id, equipment, 45_000, '2024-09-01', 'Dell Technologies');
    await add('dell now', a.id, equipment, 600_000, '2026-11-05', ' DELL');
    // Never paid before by this company (another company paid them: that does not count).
    await add('newcomer elsewhere', b.id, otherCategory, 20_000, '2025-06-01', 'Brand New Ltd');
    await add('newcomer', a.id, equipment, 610_000, '2026-11-06', 'Brand New Ltd');
    // Paid a little earlier in the window, then a lot: only the first payment is a first one (and it is small).
    await add('trial', a.id, equipment, 10_000, '2026-10-01', 'Trial Co');
    await add('trial large', a.id, equipment, 600_000, '2026-11-07', 'Trial Co');
    // The other company: ordinary amounts and an outlier.
    for (let i = 0; i < 8; i++)
      await add(`other ${i}`, b.id, otherCategory, 20_000 + i * 100, `2026-0${1 + i}-11`, 'Elsewhere');
    await add('other outlier', b.id, otherCategory, 9_999_999, '2026-11-11', 'Elsewhere');
  });

  it('before the first run: nothing computed yet, and a run is asked for', async () => {
    const page = await detectExpenseAnomalies(f.analyst, { companyId: f.a.id }, NOW);
    expect(page).toMatchObject({ anomalies: [], total: 0, computedAt: null, stale: false });
    // The read started a run in this process (no job engine here) and did not wait for it.
    await anomalyRunSettled(f.db);
    expect(await currentRun(f.db)).not.toBeNull();
  });

  it('finds the planted outlier, duplicate and first payment; a vendor paid years ago is not new', async () => {
    const result = await refresh();
    expect(result.skipped).toBeNull();
    const page = await detectExpenseAnomalies(f.analyst, { companyId: f.a.id, lookbackDays: 30 }, NOW);
    const found = page.anomalies.map((a) => [a.anomalyType, a.expenseId]);
    expect(found).toContainEqual(['unusual_amount', ids.outlier]);
    expect(found).toContainEqual(['duplicate', ids['charge again']]);
    expect(found).toContainEqual(['new_vendor', ids.newcomer]);
    // Whole history before the payment, within the company: Dell (2024) and Trial Co (earlier this window) are known.
    expect(found.filter(([type]) => type === 'new_vendor')).toEqual([['new_vendor', ids.newcomer]]);
    expect(found.some(([, id]) => id === ids['other outlier'])).toBe(false);
    expect(page.total).toBe(page.anomalies.length);
    expect(page.computedAt).toEqual(expect.any(String));
    expect(page.stale).toBe(false);

    const outlier = page.anomalies.find((a) => a.expenseId === ids.outlier)!;
    expect(outlier).toMatchObject({
      companyId: f.a.id,
      companyName: f.a.name,
      categoryName: `Anomaly Cloud ${dialect}`,
      severity: 'critical',
      amount: 20_000,
      date: '2026-11-10',
    });
    // The baseline is the category's over all its departments: the median of its recent expenses.
    expect(outlier.expectedAmount).toBe(1_000);
    expect(outlier.explanation).toMatch(/over its last 15 expenses\)\.$/);
    expect(outlier.recommendations[0]).toBe('Check the receipt and the approval for this expense');
    const newcomer = page.anomalies.find((a) => a.expenseId === ids.newcomer)!;
    expect(newcomer.explanation).toBe(
      'The first payment to Brand New Ltd, and $6,100.00 at once (reported from $5,000.00).',
    );
  });

  it('ranks most severe first, then newest; pages with limit and offset; filters by department and window', async () => {
    const all = await detectExpenseAnomalies(f.analyst, { companyId: f.a.id, lookbackDays: 90 }, NOW);
    const rank = { critical: 0, high: 1, medium: 2, low: 3 };
    const order = all.anomalies.map((a) => [rank[a.severity], a.date]);
    expect(order).toEqual(
      [...order].sort((x, y) => (x[0] as number) - (y[0] as number) || String(y[1]).localeCompare(String(x[1]))),
    );
    const second = await detectExpenseAnomalies(
      f.analyst,
      { companyId: f.a.id, lookbackDays: 90, limit: 1, offset: 1 },
      NOW,
    );
    expect(second).toMatchObject({ total: all.total, limit: 1, offset: 1 });
    expect(second.anomalies.map((a) => a.expenseId)).toEqual([all.anomalies[1].expenseId]);

    const department = await detectExpenseAnomalies(
      f.analyst,
      { companyId: f.a.id, departmentId: otherDepartment, lookbackDays: 90 },
      NOW,
    );
    expect(department.anomalies.map((a) => a.expenseId)).toEqual([ids['charge again']]);
    expect(department.total).toBe(1);
    const week = await detectExpenseAnomalies(f.analyst, { companyId: f.a.id, lookbackDays: 7 }, NOW);
    expect(week).toMatchObject({ anomalies: [], total: 0 });
    // Group-wide: every company's, each naming its company.
    const group = await detectExpenseAnomalies(f.analyst, { lookbackDays: 30 }, NOW);
    expect(group.anomalies.find((a) => a.expenseId === ids['other outlier'])).toMatchObject({ companyName: f.b.name });
    const month = await detectExpenseAnomalies(f.analyst, { companyId: f.a.id, lookbackDays: 30 }, NOW);
    expect(group.total).toBe(month.total + 1);
  });

  it('the daily series of the window: what was spent and the largest finding of each day', async () => {
    const days = await dailyExpenses(f.analyst, { companyId: f.a.id, lookbackDays: 14 }, NOW);
    expect(days).toHaveLength(14);
    expect(days[0].date).toBe('2026-11-07');
    expect(days.at(-1)!.date).toBe('2026-11-20');
    expect(days.filter((d) => d.amount > 0)).toEqual([
      { date: '2026-11-07', amount: 6_000, flagged: null },
      { date: '2026-11-10', amount: 20_000, flagged: 20_000 },
      { date: '2026-11-12', amount: 2_000, flagged: 1_000 },
    ]);
  });

  it('a user limited to one company reads that company only; bad input is a 400', async () => {
    const own = await detectExpenseAnomalies(f.scoped, { lookbackDays: 90 }, NOW);
    expect(own.anomalies.map((a) => a.expenseId)).toEqual([ids['other outlier']]);
    expect((await rejection(detectExpenseAnomalies(f.scoped, { companyId: f.a.id }, NOW))).status).toBe(404);
    expect((await rejection(dailyExpenses(f.scoped, { companyId: f.a.id }, NOW))).status).toBe(404);
    for (const input of [{ lookbackDays: 31 }, { limit: 0 }, { limit: 1001 }, { offset: -1 }, { departmentId: 'x' }]) {
      expect((await rejection(detectExpenseAnomalies(f.analyst, input, NOW))).status).toBe(400);
    }
  });

  it('does nothing while the books are unchanged; a write makes the findings stale until the next run', async () => {
    const before = (await currentRun(f.db))!;
    expect(await refreshExpenseAnomalies(f.db, { now: NOW })).toEqual({ skipped: 'unchanged' });
    expect((await currentRun(f.db))!.generation).toBe(before.generation);

    const { id } = await f.db
      .insertInto('actualExpenses')
      .values({
        companyId: f.a.id,
        departmentId: f.departmentId,
        categoryId: cloud,
        amountCents: 3_000_000,
        expenseDate: '2026-11-19',
        vendor: 'Cloud Inc',
        description: 'late',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const stale = await detectExpenseAnomalies(f.analyst, { companyId: f.a.id, lookbackDays: 7 }, NOW);
    expect(stale).toMatchObject({ stale: true, total: 0 });
    const after = await refresh();
    expect(after.skipped).toBeNull();
    const fresh = await detectExpenseAnomalies(f.analyst, { companyId: f.a.id, lookbackDays: 7 }, NOW);
    expect(fresh).toMatchObject({ stale: false, total: 1 });
    expect(fresh.anomalies[0].expenseId).toBe(id);

    // An edit counts as a change too; so does a delete.
    await f.db.updateTable('actualExpenses').set({ vendor: 'Cloud Inc.' }).where('id', '=', id).execute();
    expect((await detectExpenseAnomalies(f.analyst, { companyId: f.a.id }, NOW)).stale).toBe(true);
    await refresh();
    await f.db.deleteFrom('actualExpenses').where('id', '=', id).execute();
    expect((await detectExpenseAnomalies(f.analyst, { companyId: f.a.id }, NOW)).stale).toBe(true);
    await refresh();
    expect((await detectExpenseAnomalies(f.analyst, { companyId: f.a.id, lookbackDays: 7 }, NOW)).total).toBe(0);

    // The current and the previous generations are kept, nothing older.
    const generations = (
      await f.db.selectFrom('expenseAnomalyRuns').select('generation').orderBy('generation').execute()
    ).map((r) => r.generation);
    const current = (await currentRun(f.db))!.generation;
    expect(generations).toEqual([current - 1, current]);
    const stored = await f.db
      .selectFrom('expenseAnomalies')
      .select('generation')
      .distinct()
      .orderBy('generation')
      .execute();
    expect(stored.map((r) => r.generation)).toEqual([current - 1, current]);
  });
});
