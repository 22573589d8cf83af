// The statements every page's loaders issue run from compiled queries (db/compiled-cache.ts):
// each of their shapes compiles once, for a user of the whole group and for one of a company,
// and still gives what the built query gives (the services' own tests check the answers).
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledShapes } from '../../../db/compiled-cache.ts';
import { userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { actualExpenses, findResource } from '../../features/resources.ts';
import { countNotifications } from '../../features/notifications/notifications.server.ts';
import { formChoices } from './resource-choices.server.ts';
import { listRecords } from './resources.server.ts';

describe.each(TEST_DIALECTS)('compiled page statements on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
  });
  afterAll(() => database?.close());

  it('the top bar count and the screens’ dropdowns compile once per shape', async () => {
    const { id: groupUser } = await createTestUser(database.db, { role: 'editor' });
    const company = await database.db
      .selectFrom('companies')
      .select('id')
      .where('type', '=', 'fintech')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const { id: companyUser } = await createTestUser(database.db, { role: 'viewer', companyId: company.id });
    const metrics = findResource('subscriber-metrics')!;
    for (const userId of [groupUser, companyUser, groupUser]) {
      const ctx = await userContext(database.db, userId);
      await countNotifications(ctx);
      const choices = await formChoices(ctx, actualExpenses);
      expect(choices.departments?.length).toBeGreaterThan(0);
      // A metrics screen of one company type offers only such companies.
      const offered = await formChoices(ctx, metrics, { companyType: 'fintech' });
      expect(offered.companies?.length).toBeGreaterThan(0);
    }
    const shapes = [...compiledShapes()].filter(
      ([shape]) => shape.startsWith('notification') || shape.startsWith('choices:'),
    );
    expect(shapes.map(([shape]) => shape)).toEqual(
      expect.arrayContaining([
        'notificationBadge',
        expect.stringMatching(/^notificationCount:editor:group:/),
        expect.stringMatching(/^notificationCount:viewer:company:/),
        expect.stringMatching(/^choices:.*:company:/),
        expect.stringMatching(/^choices:.*::$/),
        expect.stringMatching(/^choices:.*::type$/),
      ]),
    );
    expect(shapes.filter(([, once]) => !once)).toEqual([]);
  });

  it('the first pages of a whole counted list come with their total in one statement', async () => {
    const { id: groupUser } = await createTestUser(database.db, { role: 'viewer' });
    const companyId = (await database.db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow())
      .id;
    const departmentId = (
      await database.db.selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()
    ).id;
    const categoryId = (
      await database.db
        .selectFrom('expenseCategories')
        .select('id')
        .where('companyId', '=', companyId)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    const day = (n: number) => `2031-01-${String(n).padStart(2, '0')}`;
    await database.db
      .insertInto('actualExpenses')
      .values(
        Array.from({ length: 7 }, (_, i) => ({
          companyId,
          departmentId,
          categoryId,
          expenseDate: day(1 + (i % 3)),
          amountCents: 100 * (i + 1),
          description: `First page ${i}`,
        })),
      )
      .execute();
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements++;
        return args.result;
      },
    };
    const ctx = { ...(await userContext(database.db, groupUser)), db: database.db.withPlugin(counting) };
    const all = await database.db
      .selectFrom('actualExpenses')
      .select('id')
      .orderBy('expenseDate', 'desc')
      .orderBy('id', 'desc')
      .execute();
    for (const [limit, offset] of [
      [3, 0],
      [3, 3],
      [5, 5],
      [10, 0],
    ]) {
      statements = 0;
      const page = await listRecords(ctx, actualExpenses, { limit, offset });
      expect(statements, `limit ${limit} offset ${offset}`).toBe(1);
      expect(page.total).toBe(all.length);
      expect(page.rows.map((r) => r.id)).toEqual(all.slice(offset, offset + limit).map((r) => r.id));
    }
    // Past the end: no rows, the total still right.
    expect(await listRecords(ctx, actualExpenses, { limit: 10, offset: all.length })).toEqual({
      rows: [],
      total: all.length,
    });
    // Sorted by amount: its own shape, the same answers as the usual way.
    const byAmount = await database.db
      .selectFrom('actualExpenses')
      .select('id')
      .orderBy('amountCents', 'asc')
      .orderBy('id', 'asc')
      .execute();
    expect(
      (await listRecords(ctx, actualExpenses, { limit: 4, offset: 1, sort: 'amount', dir: 'asc' })).rows.map(
        (r) => r.id,
      ),
    ).toEqual(byAmount.slice(1, 5).map((r) => r.id));
    expect([...compiledShapes()].filter(([shape]) => shape.startsWith('listWithTotal:'))).toEqual([
      ['listWithTotal:actual-expenses:expenseDate:desc', true],
      ['listWithTotal:actual-expenses:amount:asc', true],
    ]);
  });
});
