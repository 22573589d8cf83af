// A prepared database for the AI service tests: two companies (the third and fourth), an analyst
// who sees every company and an analyst limited to the second one (b).
import { afterAll, beforeAll } from 'vitest';
import type { Db, ServiceContext } from '../app/platform/context.ts';
import { userContext } from './context.ts';
import { createPreparedDatabase, type TestDatabase } from './database.ts';
import type { DialectName } from '../db/dialect.ts';
import { createTestUser } from './users.ts';

export interface AnalyticsFixture {
  db: Db;
  analyst: ServiceContext;
  scoped: ServiceContext;
  a: { id: number; name: string };
  b: { id: number; name: string };
  departmentId: number;
}

/** Registers the hooks; the fixture is filled in before the file's own beforeAll hooks run. */
export function useAnalyticsDatabase(dialect: DialectName): AnalyticsFixture {
  const fixture = {} as AnalyticsFixture;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    const db = database.db;
    const [a, b] = (await db.selectFrom('companies').select(['id', 'name']).orderBy('id').execute()).slice(2, 4);
    const departmentId = (await db.selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const analyst = await userContext(
      db,
      (await createTestUser(db, { role: 'viewer', flags: { canAccessAnalytics: true } })).id,
    );
    const scoped = await userContext(
      db,
      (await createTestUser(db, { role: 'viewer', companyId: b.id, flags: { canAccessAnalytics: true } })).id,
    );
    Object.assign(fixture, { db, a, b, departmentId, analyst, scoped });
  });
  afterAll(() => database?.destroy());
  return fixture;
}
