// runCompiled: compiled once per shape, the same rows as building the query every time, values
// never kept from one run to the next, and shapes whose values do not land once compiled each time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';
import { runCompiled } from './compiled-cache.ts';

describe.each(TEST_DIALECTS)('runCompiled on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
  });
  afterAll(() => database?.destroy());

  const users = (email: string, limit: number) =>
    database.db
      .selectFrom('users')
      .select(['id', 'email', 'isActive'])
      .where('email', '>=', email)
      .orderBy('email')
      .limit(limit);
  const departments = (name: string) =>
    database.db.selectFrom('departments').select('name').where('name', '>=', name).orderBy('name');

  it('gives what the built query gives, for every set of values, with the plugins applied', async () => {
    for (const [email, limit] of [
      ['a', 3],
      ['owner', 2],
      ['z', 5],
      ['o', 1],
    ] as const) {
      const cached = await runCompiled(database.db, 'test:users', [email, limit], ([e, l]) =>
        users(e as string, l as number),
      );
      expect(cached).toEqual(await users(email, limit).execute());
    }
    const [owner] = await runCompiled(database.db, 'test:users', ['a', 1], ([e, l]) => users(e as string, l as number));
    expect(owner.isActive).toBe(true); // SQLite's 1 through the portable plugin, as usual
    for (const name of ['A', 'M', 'Zz', 'Finance']) {
      expect(await runCompiled(database.db, 'test:departments', [name], ([n]) => departments(n as string))).toEqual(
        await departments(name).execute(),
      );
    }
  });

  it('compiles each time a shape whose value is used twice or made into another value, still right', async () => {
    const twice = (v: string) =>
      database.db
        .selectFrom('departments')
        .select('name')
        .where('name', '>=', v)
        .where('name', '<=', `${v}zzz`)
        .orderBy('name');
    for (const v of ['F', 'M'])
      expect(await runCompiled(database.db, 'test:twice', [v], ([x]) => twice(x as string))).toEqual(
        await twice(v).execute(),
      );
    const same = (v: string) =>
      database.db
        .selectFrom('departments')
        .select('name')
        .where('name', '>=', v)
        .where('name', '<>', v)
        .orderBy('name');
    for (const v of ['Finance', 'Legal'])
      expect(await runCompiled(database.db, 'test:same', [v], ([x]) => same(x as string))).toEqual(
        await same(v).execute(),
      );
  });
});
