// Migration 0041 on a database whose users got a settings row only once they first opened their
// settings: every user without one gets it, with what the settings service gives a user who has
// none; the rows users already had are left as they are; running it again adds nothing.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userContext } from '../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../test/database.ts';
import { createTestUser } from '../../test/users.ts';
import { getUserSettings } from '../../app/features/settings/index.server.ts';
import { DEFAULT_SETTINGS, settingsFromRow, type UserSettings } from '../../app/platform/session/user-settings-row.ts';
import { dialectHelpers } from '../dialect.ts';
import { migrations } from './index.ts';

const valuesOf = ({ id: _id, userId: _userId, createdAt: _c, updatedAt: _u, ...values }: UserSettings) => values;

describe.each(TEST_DIALECTS)('migration 0041 (a settings row for every user) on %s', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<any>;
  const ids: Record<string, number> = {};

  const rowsOf = (userId: number) => db.selectFrom('userSettings').selectAll().where('userId', '=', userId).execute();

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db as unknown as Kysely<any>;
    // Users as they were before: inserted without a settings row.
    for (const label of ['plain', 'scoped', 'chose', 'opened'])
      ids[label] = (await createTestUser(database.db, { role: label === 'scoped' ? 'editor' : 'viewer' })).id;
    // One had chosen a theme, another had only opened the settings (the service made the row).
    await db.insertInto('userSettings').values({ userId: ids.chose, theme: 'dark', sessionTimeout: 120 }).execute();
    await getUserSettings(await userContext(database.db, ids.opened));
    expect(await rowsOf(ids.plain)).toEqual([]);

    await migrations['0041_user_settings_rows'].up(db, dialectHelpers(dialect));
  });
  afterAll(() => database?.destroy());

  it('gives each user without a row the defaults the settings service gives such a user', async () => {
    const [opened] = await rowsOf(ids.opened);
    const fromService = valuesOf(settingsFromRow(opened));
    expect(fromService).toEqual(DEFAULT_SETTINGS);
    for (const label of ['plain', 'scoped']) {
      const rows = await rowsOf(ids[label]);
      expect(rows, label).toHaveLength(1);
      expect(valuesOf(settingsFromRow(rows[0])), label).toEqual(fromService);
      expect(rows[0].createdAt, label).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
  });

  it('leaves the rows users had alone, and every user has exactly one', async () => {
    const [chose] = await rowsOf(ids.chose);
    expect(settingsFromRow(chose)).toMatchObject({ theme: 'dark', sessionTimeout: 120 });
    const users = await db.selectFrom('users').select('id').execute();
    const rows = await db.selectFrom('userSettings').select('userId').execute();
    expect(rows.map((r) => r.userId).sort((a, b) => a - b)).toEqual(users.map((u) => u.id).sort((a, b) => a - b));
  });

  it('adds nothing when run again', async () => {
    const count = async () => (await db.selectFrom('userSettings').select('id').execute()).length;
    const before = await count();
    await migrations['0041_user_settings_rows'].up(db, dialectHelpers(dialect));
    expect(await count()).toBe(before);
  });
});
