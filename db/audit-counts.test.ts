// The audit trail's entries per company kept by triggers (migration 0027) on every test dialect:
// they follow inserts, deletes and a change of company; the trail's and the activity history's
// unfiltered totals read them; a bulk restore (SQLite drops the table's triggers for it) and
// recountAuditEntries count them again. The creates per table, company and month (migration
// 0028) and the entries per day and company (migration 0029) likewise.
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';
import { listAuditLogs, parseAuditQuery } from '../app/features/audit/audit-trail.server.ts';
import { restoreBackup } from '../app/features/backups/backup-restore.server.ts';
import { createBackupNow } from '../app/features/backups/backups.server.ts';
import type { ServiceContext } from '../app/platform/context.ts';
import { userActivityHistory } from '../app/features/users/user-activity.server.ts';
import { auditEntries, recountAuditEntries } from './audit-counts.ts';
import type { Database } from './types.ts';
import { auditDaysKeptAndCounted } from '../test/audit-days.ts';

/** The kept counts and a count of the rows, per company (0: none), for comparison. */
async function keptAndCounted(db: Kysely<Database>) {
  const kept = await db
    .selectFrom('auditCounts')
    .select(['companyId', 'entries'])
    .where('entries', '!=', 0)
    .orderBy('companyId')
    .execute();
  const { rows } = await sql<{
    companyId: number;
    entries: number;
  }>`select coalesce(company_id, 0) as company_id, count(*) as entries from audit_logs group by coalesce(company_id, 0) order by 1`.execute(
    db,
  );
  return [
    kept.map((r) => [Number(r.companyId), Number(r.entries)]),
    rows.map((r) => [Number(r.companyId), Number(r.entries)]),
  ];
}

/** The kept creates per table, company and month, and the same counted from the trail. */
async function createMonthsKeptAndCounted(db: Kysely<Database>, dialect: string) {
  const kept = await db
    .selectFrom('auditCreateMonths')
    .select(['tableName', 'companyId', 'month', 'entries', 'byUsers'])
    .where('entries', '!=', 0)
    .orderBy('tableName')
    .orderBy('companyId')
    .orderBy('month')
    .execute();
  const month =
    dialect === 'postgres' ? sql`to_char(timestamp at time zone 'UTC', 'YYYY-MM')` : sql`substr(timestamp, 1, 7)`;
  const { rows } = await sql<{ tableName: string; companyId: number; month: string; entries: number; byUsers: number }>`
    select table_name, coalesce(company_id, 0) as company_id, ${month} as month, count(*) as entries, count(user_id) as by_users
    from audit_logs where action = 'create' group by 1, 2, 3 order by 1, 2, 3`.execute(db);
  const shape = (r: { tableName: string; companyId: number; month: string; entries: number; byUsers: number }) => [
    r.tableName,
    Number(r.companyId),
    r.month,
    Number(r.entries),
    Number(r.byUsers),
  ];
  return [kept.map(shape), rows.map(shape)];
}

describe.each(TEST_DIALECTS)('audit counts on %s', (dialect) => {
  let database: TestDatabase;
  let owner: ServiceContext;
  let companies: number[];

  const entry = (companyId: number | null, i = 0) => ({
    tableName: 'budgets',
    recordId: i,
    action: 'create',
    userId: null,
    timestamp: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
    companyId,
    oldData: null,
    newData: null,
    changes: null,
    ipAddress: null,
    userAgent: null,
    reason: null,
    sessionId: null,
    actorLabel: 'system',
  });

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    owner = await userContext(database.db, await ownerId(database.db));
    companies = (await database.db.selectFrom('companies').select('id').orderBy('id').execute()).map((c) => c.id);
  });
  afterAll(() => database?.destroy());

  it('follow every insert, delete and change of company, and give the trail its total', async () => {
    const db = database.db;
    await db
      .insertInto('auditLogs')
      .values([entry(companies[0], 1), entry(companies[0], 2), entry(companies[1], 3), entry(null, 4)])
      .execute();
    await db.deleteFrom('auditLogs').where('recordId', '=', 2).where('actorLabel', '=', 'system').execute();
    await db
      .updateTable('auditLogs')
      .set({ companyId: companies[2] })
      .where('recordId', '=', 4)
      .where('actorLabel', '=', 'system')
      .execute();
    const [kept, counted] = await keptAndCounted(db);
    expect(kept).toEqual(counted);
    const all = Number(
      (
        await db
          .selectFrom('auditLogs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(await auditEntries(db, null)).toBe(all);
    expect((await listAuditLogs(owner, parseAuditQuery({ limit: '1' }))).total).toBe(all);
    expect((await userActivityHistory(owner, { limit: 1 })).total).toBe(all);
    const [a] = companies;
    const scoped = await userContext(
      db,
      (
        await db
          .insertInto('users')
          .values({
            username: `reader-${dialect}`,
            email: `reader-${dialect}@example.com`,
            passwordHash: 'x',
            role: 'admin',
            companyId: a,
            canAccessAuditLogs: true,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const ofA = Number(
      (
        await db
          .selectFrom('auditLogs')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('companyId', '=', a)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect((await listAuditLogs(scoped, parseAuditQuery({ limit: '1' }))).total).toBe(ofA);
  });

  it('keep the creates per table, company and month through inserts, deletes, moves and a deleted user', async () => {
    const db = database.db;
    const writer = (
      await db
        .insertInto('users')
        .values({
          username: `writer-${dialect}`,
          email: `writer-${dialect}@example.com`,
          passwordHash: 'x',
          role: 'editor',
          companyId: companies[0],
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const made = (i: number, userId: number | null, action = 'create') => ({
      ...entry(companies[i % 2], 500 + i),
      userId,
      action,
      tableName: 'actual_expenses',
      timestamp: new Date(Date.UTC(2025, i % 3, 28, 23, 59, 59)).toISOString(),
    });
    await db
      .insertInto('auditLogs')
      .values([made(0, writer), made(1, writer), made(2, null), made(3, writer, 'update'), made(4, writer)])
      .execute();
    await db.deleteFrom('auditLogs').where('recordId', '=', 501).where('tableName', '=', 'actual_expenses').execute();
    await db
      .updateTable('auditLogs')
      .set({ companyId: companies[2] })
      .where('recordId', '=', 500)
      .where('tableName', '=', 'actual_expenses')
      .execute();
    await db
      .updateTable('auditLogs')
      .set({ action: 'create' })
      .where('recordId', '=', 503)
      .where('tableName', '=', 'actual_expenses')
      .execute();
    let [kept, counted] = await createMonthsKeptAndCounted(db, dialect);
    expect(kept).toEqual(counted);
    expect(kept.some(([table, , , , byUsers]) => table === 'actual_expenses' && Number(byUsers) > 0)).toBe(true);
    // Deleting the user sets their entries' user to null (a foreign key action): no longer by a user.
    await db.deleteFrom('users').where('id', '=', writer).execute();
    [kept, counted] = await createMonthsKeptAndCounted(db, dialect);
    expect(kept).toEqual(counted);
    expect(
      kept.filter(([table]) => table === 'actual_expenses').every(([, , , , byUsers]) => Number(byUsers) === 0),
    ).toBe(true);
  });

  it('are counted again from the rows', async () => {
    await database.db.updateTable('auditCounts').set({ entries: 12345 }).execute();
    await database.db.updateTable('auditCreateMonths').set({ entries: 12345 }).execute();
    await recountAuditEntries(database.db);
    const [kept, counted] = await keptAndCounted(database.db);
    expect(kept).toEqual(counted);
    const [keptMonths, countedMonths] = await createMonthsKeptAndCounted(database.db, dialect);
    expect(keptMonths).toEqual(countedMonths);
  });

  it('agree with the trail after a restore that loads the audit entries in bulk', async () => {
    const db = database.db;
    const settings = { dir: path.join(database.dataDir, 'backups'), schedule: '0 2 * * *', keep: 2 };
    const planted = Array.from({ length: 10_000 }, (_, i) => entry(companies[i % 3], 100 + i));
    for (let i = 0; i < planted.length; i += 500)
      await db
        .insertInto('auditLogs')
        .values(planted.slice(i, i + 500))
        .execute();
    const backup = await createBackupNow(owner, settings, {
      name: 'With the trail',
      includeAuditLogs: true,
      includeVersions: true,
    });
    // The entries the restore will add back (a test may remove what the app never would).
    await db.deleteFrom('auditLogs').where('recordId', '>=', 100).where('actorLabel', '=', 'system').execute();
    await restoreBackup(owner, settings, { backupId: backup.id }, { overwrite: true });
    const [kept, counted] = await keptAndCounted(db);
    expect(counted.reduce((n, [, entries]) => n + entries, 0)).toBeGreaterThan(10_000);
    expect(kept).toEqual(counted);
    const [keptMonths, countedMonths] = await createMonthsKeptAndCounted(db, dialect);
    expect(keptMonths).toEqual(countedMonths);
    const [keptDays, countedDays] = await auditDaysKeptAndCounted(db, dialect);
    expect(keptDays.length).toBeGreaterThan(0);
    expect(keptDays).toEqual(countedDays);
  });
});
