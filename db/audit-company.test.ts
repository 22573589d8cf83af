// Migration 0006 gives the audit entries and versions written before it their company, from
// their data: the row's companyId, a company's own id, none for shared rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';
import { dialectHelpers, dialectOf } from './dialect.ts';
import { backfillAuditCompanies } from './migrations/0006_audit_company.ts';

describe.each(TEST_DIALECTS)('audit company backfill on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
  });
  afterAll(() => database?.destroy());

  it('takes the company from the new data, else the old, and a company row its own id', async () => {
    const db = database.db;
    const entry = (tableName: string, recordId: number, oldData: unknown, newData: unknown) => ({
      tableName,
      recordId,
      action: 'update',
      oldData: JSON.stringify(oldData),
      newData: JSON.stringify(newData),
      timestamp: new Date().toISOString(),
      companyId: null,
    });
    await db.deleteFrom('auditLogs').execute();
    await db.deleteFrom('dataVersions').execute();
    await db
      .insertInto('auditLogs')
      .values([
        entry('budgets', 1, { companyId: 3 }, { companyId: 2 }),
        entry('budgets', 2, { companyId: 4 }, null),
        entry('companies', 3, null, { id: 3, name: 'Atlas' }),
        entry('departments', 4, null, { id: 4, name: 'Finance' }),
      ])
      .execute();
    await db
      .insertInto('dataVersions')
      .values([
        {
          tableName: 'users',
          recordId: 9,
          version: 1,
          data: JSON.stringify({ companyId: 2 }),
          action: 'create',
          isActive: true,
          createdAt: new Date().toISOString(),
          companyId: null,
        },
        {
          tableName: 'companies',
          recordId: 4,
          version: 1,
          data: JSON.stringify({ id: 4 }),
          action: 'create',
          isActive: true,
          createdAt: new Date().toISOString(),
          companyId: null,
        },
      ])
      .execute();
    await backfillAuditCompanies(db, dialectHelpers(dialectOf(db)));
    const audit = await db.selectFrom('auditLogs').select(['recordId', 'companyId']).orderBy('recordId').execute();
    expect(audit.map((r) => [r.recordId, r.companyId])).toEqual([
      [1, 2],
      [2, 4],
      [3, 3],
      [4, null],
    ]);
    const versions = await db
      .selectFrom('dataVersions')
      .select(['recordId', 'companyId'])
      .orderBy('recordId')
      .execute();
    expect(versions.map((r) => [r.recordId, r.companyId])).toEqual([
      [4, 4],
      [9, 2],
    ]);
  });
});
