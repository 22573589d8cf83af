// streamQuery: the rows execute() gives (keys, types, plugins), in batches, on both databases;
// a consumer that stops early or a failing query leaves no connection or read transaction behind.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';
import { streamQuery } from './stream.ts';

describe.each(TEST_DIALECTS)('streamQuery on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
  });
  afterAll(() => database?.destroy());

  // Text, integers, booleans, nulls, dates and timestamps, and a joined column with a snake_case alias.
  const query = () =>
    database.db
      .selectFrom('expenseCategories as c')
      .innerJoin('companies as co', 'co.id', 'c.companyId')
      .select([
        'c.id',
        'c.name',
        'c.companyId',
        'c.departmentId',
        'c.description',
        'c.createdAt',
        'co.name as company_name',
      ])
      .orderBy('c.id');

  async function collect(batchSize: number) {
    const batches = [];
    for await (const batch of streamQuery(database.db, query(), batchSize)) batches.push(batch);
    return batches;
  }

  it('gives exactly the rows execute() gives, batch by batch', async () => {
    const expected = await query().execute();
    expect(expected.length).toBeGreaterThan(20);
    expect(Object.keys(expected[0])).toContain('companyName');
    for (const size of [1, 7, expected.length, expected.length + 5]) {
      const batches = await collect(size);
      expect(batches.flat()).toEqual(expected);
      expect(batches.every((b) => b.length > 0 && b.length <= size)).toBe(true);
      expect(batches).toHaveLength(Math.ceil(expected.length / size));
    }
    expect(typeof expected[0].createdAt).toBe('string');
    expect(expected.some((r) => r.departmentId === null)).toBe(true);
    // Booleans through the portable plugin on SQLite (0/1 stored), as execute() gives them.
    const users = database.db.selectFrom('users').select(['id', 'isActive', 'passwordChangedAt']).orderBy('id');
    const streamed = [];
    for await (const batch of streamQuery(database.db, users, 2)) streamed.push(...batch);
    expect(streamed).toEqual(await users.execute());
    expect(typeof streamed[0].isActive).toBe('boolean');
  });

  it('gives nothing for no rows', async () => {
    const none = database.db.selectFrom('companies').select('id').where('id', '<', 0);
    const batches = [];
    for await (const batch of streamQuery(database.db, none, 10)) batches.push(batch);
    expect(batches).toEqual([]);
  });

  it('frees its connection when the consumer stops early or the query fails', async () => {
    // More early stops than the test pool has connections (5): a leak would hang here.
    for (let i = 0; i < 12; i++) {
      for await (const batch of streamQuery(database.db, query(), 2)) {
        expect(batch).toHaveLength(2);
        break;
      }
    }
    for (let i = 0; i < 7; i++) {
      const failing = database.db.selectFrom('companies').select(sql<number>`1 / (id - id)`.as('boom'));
      const read = async () => {
        for await (const _ of streamQuery(database.db, failing, 10)) void _;
      };
      if (dialect === 'postgres') await expect(read()).rejects.toThrow(/division by zero/);
      else await read(); // SQLite answers null for a division by zero
    }
    expect(await query().execute()).toHaveLength((await collect(1000)).flat().length);
  });
});
