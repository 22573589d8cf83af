// Migration 0036 on a database that already has sync logs: the logs keep every column (SQLite
// builds the table again for its new CHECK), 'partial' is then accepted and anything else still
// refused, and endpoints get an empty company.
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';
import { dialectHelpers, dialectOf } from './dialect.ts';
import { migrations } from './migrations/index.ts';

const upTo = async (db: Kysely<any>, last: string) => {
  const d = dialectHelpers(dialectOf(db));
  const names = Object.keys(migrations);
  const listed = Object.fromEntries(
    names
      .slice(0, names.indexOf(last) + 1)
      .map((name): [string, Migration] => [name, { up: (k: Kysely<any>) => migrations[name].up(k, d) }]),
  );
  const schema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema
      : undefined;
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: async () => listed },
    migrationTableSchema: schema,
  }).migrateToLatest();
  if (error) throw error;
};

describe.each(TEST_DIALECTS)('migration 0036 on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database?.destroy());

  it("keeps the sync logs, accepts 'partial' after it, and adds an endpoint's empty company", async () => {
    const db = database.db as unknown as Kysely<any>;
    await upTo(db, '0035_audit_user_counts');
    const source = await db
      .insertInto('apiIntegrationSources')
      .values({ name: 'Old feed', baseUrl: 'https://old.example.com' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const endpoint = await db
      .insertInto('apiIntegrationEndpoints')
      .values({ sourceId: source.id, name: 'Old', endpoint: '/old', targetTable: 'actual_expenses' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const log = {
      endpointId: endpoint.id,
      status: 'success',
      startedAt: '2026-01-02T03:04:05.000Z',
      completedAt: '2026-01-02T03:04:06.000Z',
      recordsProcessed: 5,
      recordsCreated: 2,
      recordsUpdated: 1,
      recordsSkipped: 2,
      recordsFailed: 0,
      requests: 3,
      syncDuration: 1000,
      responseTime: 200,
      errorMessage: '2 records skipped',
      syncData: '{"errors":[]}',
      leaseToken: 'token-1',
    };
    const before = await db.insertInto('apiIntegrationSyncLogs').values(log).returning('id').executeTakeFirstOrThrow();
    await expect(
      db.insertInto('apiIntegrationSyncLogs').values({ endpointId: endpoint.id, status: 'partial' }).execute(),
    ).rejects.toThrow();

    await upTo(db, '0036_sync_company_partial');
    const kept = await db
      .selectFrom('apiIntegrationSyncLogs')
      .selectAll()
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect({
      ...kept,
      startedAt: new Date(kept.startedAt).toISOString(),
      completedAt: new Date(kept.completedAt).toISOString(),
    }).toMatchObject({ ...log, id: before.id, triggeredBy: null, leaseExpiresAt: null });
    const partial = await db
      .insertInto('apiIntegrationSyncLogs')
      .values({ endpointId: endpoint.id, status: 'partial' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(partial.id).toBeGreaterThan(before.id);
    await expect(
      db.insertInto('apiIntegrationSyncLogs').values({ endpointId: endpoint.id, status: 'skipped' }).execute(),
    ).rejects.toThrow();
    expect(await db.selectFrom('apiIntegrationEndpoints').select('companyId').execute()).toEqual([{ companyId: null }]);
    await expect(db.updateTable('apiIntegrationEndpoints').set({ companyId: 999_999 }).execute()).rejects.toThrow();
    await db.deleteFrom('apiIntegrationEndpoints').execute();
    expect(await db.selectFrom('apiIntegrationSyncLogs').select('id').execute()).toEqual([]);
  });
});
