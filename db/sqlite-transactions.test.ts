// SQLite transactions take the write lock at BEGIN (db/client.ts): a read-then-write transaction
// must not fail when another process writes in between; the other writer waits instead.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, type TestDatabase } from '../test/database.ts';

describe('SQLite write transactions', () => {
  let database: TestDatabase;
  let other: SQLite.Database;
  beforeAll(async () => {
    database = await createPreparedDatabase('sqlite');
    other = new SQLite(path.join(database.dataDir, 'finhub.db'));
    other.pragma('busy_timeout = 0');
  });
  afterAll(async () => {
    other?.close();
    await database?.destroy();
  });

  it('a read-then-write transaction holds the lock from BEGIN, so another connection waits (here: is refused at once)', async () => {
    let otherError: unknown = null;
    await database.db.transaction().execute(async (trx) => {
      const company = await trx.selectFrom('companies').select(['id', 'name']).orderBy('id').executeTakeFirstOrThrow();
      // Another process writes between our read and our write.
      try {
        other.prepare("update companies set description = 'other process' where id = ?").run(company.id);
      } catch (error) {
        otherError = error;
      }
      await trx.updateTable('companies').set({ description: 'app' }).where('id', '=', company.id).execute();
    });
    expect((otherError as { code?: string } | null)?.code).toBe('SQLITE_BUSY');
    const first = await database.db
      .selectFrom('companies')
      .select('description')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(first.description).toBe('app');
  });
});
