// The statements every page's loaders issue run from compiled queries (db/compiled-cache.ts):
// each of their shapes compiles once, for a user of the whole group and for one of a company,
// and still gives what the built query gives (the services' own tests check the answers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledShapes } from '../../db/compiled-cache.ts';
import { userContext } from '../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../test/database.ts';
import { createTestUser } from '../../test/users.ts';
import { actualExpenses, findResource } from '../resources/index.ts';
import { countNotifications } from './notifications.server.ts';
import { formChoices } from './resource-choices.server.ts';

describe.each(TEST_DIALECTS)('compiled page statements on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
  });
  afterAll(() => database?.close());

  it('the top bar count and the screens’ dropdowns compile once per shape', async () => {
    const { id: groupUser } = await createTestUser(database.db, { role: 'editor' });
    const company = await database.db.selectFrom('companies').select('id').where('type', '=', 'fintech').orderBy('id').executeTakeFirstOrThrow();
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
    const shapes = [...compiledShapes()].filter(([shape]) => shape.startsWith('notificationCount:') || shape.startsWith('choices:'));
    expect(shapes.map(([shape]) => shape)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^notificationCount:editor:group:/),
        expect.stringMatching(/^notificationCount:viewer:company:/),
        expect.stringMatching(/^choices:.*:company:/),
        expect.stringMatching(/^choices:.*::$/),
        expect.stringMatching(/^choices:.*::type$/),
      ]),
    );
    expect(shapes.filter(([, once]) => !once)).toEqual([]);
  });
});
