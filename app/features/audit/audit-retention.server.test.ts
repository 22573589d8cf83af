// Audit retention (AUDIT_RETENTION_DAYS) on every test database: audit entries older than the
// cut-off go, recent ones stay; versions of records that still exist are kept however old;
// versions of deleted records go once older than the cut-off; deletes run in batches; the
// nightly job does nothing while AUDIT_RETENTION_DAYS is unset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../test/assertions.ts';
import { userContext, noEngine } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import auditRetentionHandler from './jobs/audit-retention.handler.ts';
import { runJobNow } from '../../platform/jobs/run-now.ts';
import { JOBS } from '../jobs.ts';
import { testConfig } from '../../../worker/test-helpers.ts';
import { toJson } from '../../../db/dialect.ts';
import { findResource } from '../resources.ts';
import { pruneAuditTrail } from './audit-retention.server.ts';
import { restoreVersion } from './audit-trail.server.ts';
import { systemActor, type Db, type ServiceContext } from '../../platform/context.ts';
import { createRecord, deleteRecord, updateRecord } from '../../platform/resources/resource-writes.server.ts';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const companies = findResource('companies')!;

describe.each(TEST_DIALECTS)('audit retention on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let system: ServiceContext;
  let n = 0;
  const unique = (label: string) => `${label} ${dialect} ${++n}`;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    system = { db, actor: systemActor('worker'), meta: {}, runtime: noEngine() };
  });
  afterAll(() => database?.destroy());

  async function insertAudit(tableName: string, timestamps: string[]) {
    await db
      .insertInto('auditLogs')
      .values(
        timestamps.map((timestamp, i) => ({
          tableName,
          recordId: i + 1,
          action: 'update',
          actorLabel: 'system',
          timestamp,
        })),
      )
      .execute();
  }
  const auditTimes = async (tableName: string) =>
    (
      await db.selectFrom('auditLogs').select('timestamp').where('tableName', '=', tableName).orderBy('id').execute()
    ).map((r) => r.timestamp);
  const versionsOf = async (tableName: string, recordId: number) =>
    (
      await db
        .selectFrom('dataVersions')
        .select(['version', 'action'])
        .where('tableName', '=', tableName)
        .where('recordId', '=', recordId)
        .orderBy('version')
        .execute()
    ).map((v) => `${v.version}:${v.action}`);
  const backdateVersions = async (tableName: string, recordId: number, days: number, versions?: number[]) => {
    let q = db
      .updateTable('dataVersions')
      .set({ createdAt: daysAgo(days) })
      .where('tableName', '=', tableName)
      .where('recordId', '=', recordId);
    if (versions) q = q.where('version', 'in', versions);
    await q.execute();
  };
  const newCompany = async () =>
    (await createRecord(system, companies, { name: unique('Retention Co'), type: 'fintech' })).id as number;

  it('deletes audit entries older than the cut-off and keeps the recent ones (and may run twice)', async () => {
    await insertAudit('retention_probe', [daysAgo(400), daysAgo(366), daysAgo(800), daysAgo(364), daysAgo(1)]);
    const before = await db
      .selectFrom('auditLogs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const result = await pruneAuditTrail(system, { retentionDays: 365 });
    expect(result).toMatchObject({ auditLogs: 3, dataVersions: 0, batches: 1 });
    expect(Date.parse(result.cutoff)).toBeCloseTo(Date.now() - 365 * DAY, -4);
    const kept = await auditTimes('retention_probe');
    expect(kept).toHaveLength(2);
    expect(kept.every((t) => Date.parse(t) > Date.now() - 365 * DAY)).toBe(true);
    // The bootstrap's own (recent) entries are untouched.
    const after = await db
      .selectFrom('auditLogs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) - 3);
    expect(await pruneAuditTrail(system, { retentionDays: 365 })).toMatchObject({
      auditLogs: 0,
      dataVersions: 0,
      batches: 0,
    });
    // `now` moves the cut-off: counted from a year on, the 364-day-old entry is old too.
    const later = new Date(Date.now() + 2 * DAY);
    expect(await pruneAuditTrail(system, { retentionDays: 365, now: later })).toMatchObject({ auditLogs: 1 });
  });

  it('keeps every version of a record that still exists, however old', async () => {
    const id = await newCompany();
    await updateRecord(system, companies, id, { description: 'first change' });
    await updateRecord(system, companies, id, { description: 'second change' });
    await backdateVersions('companies', id, 3000);
    const owner = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'owner@example.com')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('dataVersions')
      .values({
        tableName: 'users',
        recordId: owner.id,
        version: 1000,
        data: null,
        action: 'update',
        createdAt: daysAgo(3000),
        isActive: false,
      })
      .execute();
    await pruneAuditTrail(system, { retentionDays: 30 });
    expect(await versionsOf('companies', id)).toEqual(['1:create', '2:update', '3:update']);
    expect(await versionsOf('users', owner.id)).toContain('1000:update');
  });

  it('deletes the old versions of deleted records, keeps their recent ones, and the record stays restorable from those', async () => {
    // Deleted long ago: every version goes.
    const gone = await newCompany();
    await updateRecord(system, companies, gone, { description: 'edited' });
    await deleteRecord(system, companies, gone);
    await backdateVersions('companies', gone, 400);
    // Created long ago, deleted yesterday: the old versions go, the recent `delete` one stays.
    const recentlyDeleted = await newCompany();
    await updateRecord(system, companies, recentlyDeleted, { description: 'before deletion' });
    await backdateVersions('companies', recentlyDeleted, 400, [1, 2]);
    await deleteRecord(system, companies, recentlyDeleted);
    // A deleted user's old versions go too; a table nobody declares keeps its versions.
    await db
      .insertInto('dataVersions')
      .values([
        {
          tableName: 'users',
          recordId: 987_654,
          version: 1,
          data: toJson({ username: 'left' }),
          action: 'create',
          createdAt: daysAgo(500),
          isActive: false,
        },
        {
          tableName: 'users',
          recordId: 987_654,
          version: 2,
          data: toJson({ username: 'left' }),
          action: 'delete',
          createdAt: daysAgo(499),
          isActive: true,
        },
        {
          tableName: 'legacy_things',
          recordId: 1,
          version: 1,
          data: null,
          action: 'create',
          createdAt: daysAgo(5000),
          isActive: true,
        },
      ])
      .execute();

    const result = await pruneAuditTrail(system, { retentionDays: 365 });
    expect(result.dataVersions).toBe(3 + 2 + 2);
    expect(await versionsOf('companies', gone)).toEqual([]);
    expect(await versionsOf('companies', recentlyDeleted)).toEqual(['3:delete']);
    expect(await versionsOf('users', 987_654)).toEqual([]);
    expect(await versionsOf('legacy_things', 1)).toEqual(['1:create']);

    // The surviving delete version still brings the record back, with its last data.
    const kept = await db
      .selectFrom('dataVersions')
      .select('id')
      .where('tableName', '=', 'companies')
      .where('recordId', '=', recentlyDeleted)
      .executeTakeFirstOrThrow();
    const restored = await restoreVersion(system, kept.id);
    expect(restored.created).toBe(true);
    expect(restored.record).toMatchObject({ id: recentlyDeleted, description: 'before deletion' });
    // Existing again: its versions are kept from now on, however old.
    await backdateVersions('companies', recentlyDeleted, 400);
    expect((await pruneAuditTrail(system, { retentionDays: 365 })).dataVersions).toBe(0);
    expect(await versionsOf('companies', recentlyDeleted)).toEqual(['3:delete', '4:create']);
  });

  it('deletes in batches of batchSize until none are left', async () => {
    await insertAudit('retention_batches', [
      daysAgo(100),
      daysAgo(101),
      daysAgo(102),
      daysAgo(103),
      daysAgo(104),
      daysAgo(5),
    ]);
    await db
      .insertInto('dataVersions')
      .values(
        [1, 2, 3, 4, 5].map((version) => ({
          tableName: 'companies',
          recordId: 876_543,
          version,
          data: null,
          action: 'update',
          createdAt: daysAgo(200),
          isActive: version === 5,
        })),
      )
      .execute();
    const result = await pruneAuditTrail(system, { retentionDays: 90, batchSize: 2 });
    // 2 + 2 + 1 audit entries, 2 + 2 + 1 versions: three statements each.
    expect(result).toMatchObject({ auditLogs: 5, dataVersions: 5, batches: 6 });
    expect(await auditTimes('retention_batches')).toHaveLength(1);
    expect(await versionsOf('companies', 876_543)).toEqual([]);
    // A full last batch needs one more (empty) statement to know it was the last.
    await insertAudit('retention_batches', [daysAgo(100), daysAgo(101)]);
    expect(await pruneAuditTrail(system, { retentionDays: 90, batchSize: 2 })).toMatchObject({
      auditLogs: 2,
      batches: 1,
    });
  });

  it('refuses bad options', async () => {
    for (const options of [{ retentionDays: 0 }, { retentionDays: 1.5 }, { retentionDays: 30, batchSize: 0 }]) {
      expect((await rejection(pruneAuditTrail(system, options))).status).toBe(400);
    }
  });

  it('may be run by the system or an administrator of the whole group, not by other users', async () => {
    const company = await db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
    const editor = await createTestUser(db, { role: 'editor', flags: { canAccessAuditLogs: true } });
    const companyAdmin = await createTestUser(db, { role: 'admin', companyId: company.id });
    const admin = await createTestUser(db, { role: 'admin' });
    expect((await rejection(pruneAuditTrail(await userContext(db, editor.id), { retentionDays: 30 }))).status).toBe(
      403,
    );
    expect(
      (await rejection(pruneAuditTrail(await userContext(db, companyAdmin.id), { retentionDays: 30 }))).status,
    ).toBe(403);
    await expect(pruneAuditTrail(await userContext(db, admin.id), { retentionDays: 3650 })).resolves.toMatchObject({
      auditLogs: 0,
    });
  });

  describe('the audit-retention job', () => {
    it('does nothing while AUDIT_RETENTION_DAYS is unset (or empty)', async () => {
      await insertAudit('retention_job_unset', [daysAgo(10_000)]);
      for (const value of [undefined, '']) {
        // As a worker loads it: the setting from the environment through the configuration.
        const result = await runJobNow(
          JOBS,
          'audit-retention',
          {},
          { db, settings: testConfig(database.dataDir, { AUDIT_RETENTION_DAYS: value }), runtime: noEngine() },
        );
        expect(result).toEqual({ skipped: true, reason: 'AUDIT_RETENTION_DAYS is not set' });
        expect(await auditTimes('retention_job_unset')).toHaveLength(1);
      }
      await db.deleteFrom('auditLogs').where('tableName', '=', 'retention_job_unset').execute();
    });

    it('prunes with AUDIT_RETENTION_DAYS days, as the worker', async () => {
      await insertAudit('retention_job_set', [daysAgo(31), daysAgo(29)]);
      const logs: string[] = [];
      const result = await auditRetentionHandler.handler(
        { batchSize: 1000 },
        {
          db,
          actor: systemActor('worker'),
          meta: {},
          runtime: noEngine(),
          dataDir: database.dataDir,
          backups: { dir: database.dataDir, schedule: '0 2 * * *', keep: 14 },
          push: { vapid: null, allowPrivateTargets: false },
          openai: null,
          integrations: { keys: ['0'.repeat(64)], allowPrivateTargets: false, timeoutMs: 1000, maxResponseBytes: 1024 },
          auditRetentionDays: 30,
          job: { id: 'test', name: 'audit-retention', retryCount: 0 },
          log: (m) => logs.push(m),
        },
      );
      expect(result).toMatchObject({ skipped: false, retentionDays: 30, auditLogs: 1 });
      expect(await auditTimes('retention_job_set')).toHaveLength(1);
      expect(logs.join('\n')).toContain('1 audit entries');
    });
  });
});
