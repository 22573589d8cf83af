// Backups on every test database: a backup of the demo data restores to equal rows (with and
// without overwrite), across dialects, refuses a damaged file or a newer schema without
// changing anything, upgrades an older schema's rows, names the row that fails, keeps the
// restorer's sign-in and the newest scheduled backups.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../system/bootstrap.server.ts';
import { createTestDatabase, OWNER_PASSWORD, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { ownerId, userContext, noEngine } from '../../../test/context.ts';
import { aggregatesAgainstRows } from '../../../test/aggregates.ts';
import { dayCountsAgainstRows } from '../../../test/day-counts.ts';
import { searchTableAgainstRows } from '../../../test/search-table.ts';
import { createTestUser } from '../../../test/users.ts';
import { isSearchIndexTable } from '../../../db/search-index.ts';
import { snakeCase } from '../../platform/lib/names.ts';
import { BACKUP_TABLES, NOT_BACKED_UP } from './backup-tables.server.ts';
import { restoreBackup, RIGHTS_RESTORE_REFUSAL } from './backup-restore.server.ts';
import { foldedSentence } from './backup-retired.server.ts';
import { catalogTranslator } from '../shell/catalog-files.server.ts';
import { actualExpenses, departments } from '../resources.ts';
import { deleteRecord, updateRecord } from '../../platform/resources/resource-writes.server.ts';
import { listRecords } from '../../platform/resources/resources.server.ts';
import { SCHEMA_VERSION } from './backup-upgrades.server.ts';
import {
  BACKUP_ALREADY_RUNNING,
  BACKUP_QUOTA_REACHED,
  MANUAL_BACKUP_QUOTA,
  OTHERS_BACKUP_DELETE_REFUSAL,
  SAFETY_BACKUP_DELETE_REFUSAL,
} from './backups.server.ts';
import {
  createBackupNow,
  deleteBackup,
  failInterruptedBackups,
  listBackups,
  pruneScheduledBackups,
  tableColumns,
  verifyBackup,
  verifyBackupFile,
  backupFilePath,
} from './backups.server.ts';
import type { BackupSettings } from '../../platform/config.server.ts';
import { systemActor, type ServiceContext } from '../../platform/context.ts';
import { createSession } from '../../platform/session/sessions.server.ts';
import { settingsFromRow } from '../../platform/session/user-settings-row.ts';
import { runJobNow } from '../../platform/jobs/run-now.ts';
import { JOBS } from '../jobs.ts';
import { testConfig } from '../../../worker/test-helpers.ts';
import type { Database } from '../../../db/types.ts';

const ALL = { includeAuditLogs: true, includeVersions: true };

/** JSON with every object's keys sorted (PostgreSQL's jsonb keeps its own key order). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

/** Every backed-up table's rows, ordered by id, as comparable text. */
async function dump(ctx: ServiceContext, tables = BACKUP_TABLES.map((t) => t.name)): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    const rows = await (ctx.db as any).selectFrom(t).selectAll().orderBy('id').execute();
    out[t] = rows.map((r: Record<string, unknown>) => canonical(r));
  }
  return out;
}

async function seeded(dialect: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  const database = await createTestDatabase(dialect);
  await prepareDatabase(database, { seedDemo: true, owner: { email: 'owner@example.com', password: OWNER_PASSWORD } });
  return database;
}

it('every table is either backed up or left out with a reason', async () => {
  const database = await createTestDatabase('sqlite');
  try {
    const { migrateToLatest } = await import('../../../db/migrate.ts');
    await migrateToLatest(database.db);
    const tables = (await database.db.introspection.getTables()).map((t) => t.name);
    const known = new Set([
      ...BACKUP_TABLES.map((t) => snakeCase(t.name)),
      ...Object.keys(NOT_BACKED_UP).map(snakeCase),
    ]);
    // The search indexes' FTS5 tables are derived from their rows, rebuilt by a restore.
    expect(tables.filter((t) => !known.has(t) && !isSearchIndexTable(t))).toEqual([]);
  } finally {
    await database.destroy();
  }
});

describe.each(TEST_DIALECTS)('backups on %s', (dialect) => {
  let database: TestDatabase;
  let owner: ServiceContext;
  let settings: BackupSettings;

  beforeAll(async () => {
    database = await seeded(dialect);
    owner = await userContext(database.db, await ownerId(database.db));
    settings = { dir: path.join(database.dataDir, 'backups'), schedule: '0 2 * * *', keep: 2 };
  });
  afterAll(() => database?.destroy());

  it.runIf(dialect === 'postgres')(
    'reads the columns of its own schema, not of same-named tables elsewhere in the database',
    async () => {
      // A schema named like a test database's, so the global teardown drops it.
      const other = `t_${crypto.randomBytes(6).toString('hex')}`;
      await sql`create schema ${sql.id(other)}`.execute(database.db);
      await sql`create table ${sql.id(other, 'actual_expenses')} (zz_other integer)`.execute(database.db);
      const columns = (await tableColumns(owner, ['actualExpenses', 'departments'])).get('actualExpenses');
      expect(columns).toContain('amountCents');
      expect(columns).not.toContain('zzOther');
      expect(columns?.[0]).toBe('id');
    },
  );

  it('writes a 0600 gzip file with its manifest, and verifies it', async () => {
    const backup = await createBackupNow(owner, settings, { name: 'Everything', ...ALL });
    expect(backup.status).toBe('completed');
    const before = await dump(owner);
    const total = Object.values(before).reduce((n, rows) => n + rows.length, 0);
    expect(backup.recordCount).toBe(total);
    expect(backup.tableCounts?.budgets).toBe(before.budgets.length);
    expect(backup.schemaVersion).toBe(SCHEMA_VERSION);
    const [file] = fs.readdirSync(settings.dir).filter((f) => f.startsWith(`finhub-backup-${backup.id}-`));
    const stat = fs.statSync(path.join(settings.dir, file));
    expect(stat.mode & 0o777).toBe(0o600);
    expect(stat.size).toBe(backup.size);
    expect(await verifyBackup(owner, settings, backup.id)).toEqual({ valid: true });
    const manifest = JSON.parse(
      zlib
        .gunzipSync(fs.readFileSync(path.join(settings.dir, file)))
        .toString()
        .split('\n')[0],
    );
    expect(manifest).toMatchObject({
      format: 'finhub-backup',
      formatVersion: 1,
      schemaVersion: SCHEMA_VERSION,
      dialect,
      rows: total,
    });
    // Password hashes travel (a restore must let people sign in).
    expect(zlib.gunzipSync(fs.readFileSync(path.join(settings.dir, file))).toString()).toContain('$argon2');
  });

  it('restores with overwrite to exactly the backup, after a safety backup, and audits it once', async () => {
    const backup = await createBackupNow(owner, settings, { name: 'Before changes', ...ALL });
    const before = await dump(owner);
    const db = database.db;
    const budget = await db.selectFrom('budgets').select(['id']).orderBy('id').executeTakeFirstOrThrow();
    await db.updateTable('budgets').set({ amountCents: 1 }).where('id', '=', budget.id).execute();
    await db
      .deleteFrom('actualExpenses')
      .where('id', 'in', db.selectFrom('actualExpenses').select('id').orderBy('id').limit(5))
      .execute();
    const category = await db.selectFrom('expenseCategories').selectAll().orderBy('id').executeTakeFirstOrThrow();
    await db
      .insertInto('actualExpenses')
      .values({
        companyId: category.companyId,
        departmentId: category.departmentId ?? 1,
        categoryId: category.id,
        amountCents: 99,
        expenseDate: '2026-01-02',
        description: 'added after the backup',
      })
      .execute();

    // PostgreSQL: the restore writes with the user triggers off, and replaces the change token
    // itself (migration 0014), so no process keeps page anchors of the rows before it.
    const token = async () =>
      (await sql<{ token: string }>`select token from change_tokens where table_name = 'actual_expenses'`.execute(db))
        .rows[0].token;
    const tokenBefore = dialect === 'postgres' ? await token() : null;
    const result = await restoreBackup(owner, settings, { backupId: backup.id }, { overwrite: true });
    expect(result.safetyBackupId).not.toBeNull();
    if (dialect === 'postgres') expect(await token()).not.toBe(tokenBefore);
    const after = await dump(owner);
    // The restore's own audit entry is the one new audit row.
    const { auditLogs, ...rest } = after;
    const { auditLogs: beforeAudit, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    expect(auditLogs.slice(0, beforeAudit.length)).toEqual(beforeAudit);
    const entries = await db.selectFrom('auditLogs').selectAll().where('action', '=', 'restore').execute();
    expect(entries.length).toBe(1);
    expect(entries[0].newData).toMatchObject({ overwrite: true, rows: backup.recordCount });
    const safety = (await listBackups(owner)).find((b) => b.id === result.safetyBackupId)!;
    expect(safety).toMatchObject({ type: 'automated', status: 'completed' });
    // Row counts kept by triggers still agree with the tables.
    const counts = await db
      .selectFrom('rowCounts')
      .select(['companyId', 'rowCount'])
      .where('tableName', '=', 'actual_expenses')
      .execute();
    const real = await db
      .selectFrom('actualExpenses')
      .select(['companyId', db.fn.countAll<number>().as('n')])
      .groupBy('companyId')
      .execute();
    expect(
      Object.fromEntries(counts.filter((c) => c.rowCount > 0).map((c) => [c.companyId, Number(c.rowCount)])),
    ).toEqual(Object.fromEntries(real.map((r) => [r.companyId, Number(r.n)])));
    // So do the month totals and plans (migration 0022), built again from the restored rows.
    const [kept, rebuilt] = await aggregatesAgainstRows(db);
    expect(kept.budget_month_plans.length).toBeGreaterThan(0);
    expect(kept).toEqual(rebuilt);
    // The search index holds the restored rows, and not the row added after the backup
    // (PostgreSQL's search table is loaded with the triggers off, then rebuilt).
    expect(await listRecords(owner, actualExpenses, { q: 'added after the backup', limit: 10, offset: 0 })).toEqual({
      rows: [],
      total: 0,
    });
    if (dialect === 'postgres') {
      const [searched, fromRows] = await searchTableAgainstRows(db);
      expect(searched).toEqual(fromRows);
      // So are the day counts (migration 0017), counted again from the restored rows.
      const [kept, counted] = await dayCountsAgainstRows(db);
      expect(kept).toEqual(counted);
    } else {
      await sql`insert into actual_expenses_search (actual_expenses_search) values ('integrity-check')`.execute(db);
    }
    // New rows get ids past the restored ones (sequences moved on PostgreSQL).
    const added = await db
      .insertInto('departments')
      .values({ name: `After restore ${dialect}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const max = await db.selectFrom('departments').select(db.fn.max('id').as('m')).executeTakeFirstOrThrow();
    expect(added.id).toBe(Number(max.m));
    await db.deleteFrom('departments').where('id', '=', added.id).execute();
  });

  it('without overwrite adds only missing rows and leaves existing ones', async () => {
    const backup = await createBackupNow(owner, settings, {
      tables: ['departments', 'companies', 'expenseCategories', 'actualExpenses'],
    });
    const db = database.db;
    const gone = await db.selectFrom('actualExpenses').selectAll().orderBy('id').limit(3).execute();
    await db
      .deleteFrom('actualExpenses')
      .where(
        'id',
        'in',
        gone.map((r) => r.id),
      )
      .execute();
    const changed = await db.selectFrom('actualExpenses').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await db.updateTable('actualExpenses').set({ description: 'changed since' }).where('id', '=', changed.id).execute();
    const result = await restoreBackup(
      owner,
      settings,
      { backupId: backup.id },
      { overwrite: false, skipAuditLogs: true },
    );
    expect(result.safetyBackupId).toBeNull();
    expect(result.tables.find((t) => t.table === 'actualExpenses')).toMatchObject({ written: 3, deleted: 0 });
    const back = await db
      .selectFrom('actualExpenses')
      .selectAll()
      .where(
        'id',
        'in',
        gone.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    expect(back).toEqual(gone);
    expect(
      (
        await db
          .selectFrom('actualExpenses')
          .select('description')
          .where('id', '=', changed.id)
          .executeTakeFirstOrThrow()
      ).description,
    ).toBe('changed since');
  });

  it('users of a backup made before every user had a settings row come back with the default settings, and the entry says how many', async () => {
    const db = database.db;
    // A user as they were before: no settings row (the test helper inserts the user alone).
    const bare = await createTestUser(db, { role: 'viewer' });
    const backup = await createBackupNow(owner, settings, { tables: ['users'] });
    await db.deleteFrom('users').where('id', '=', bare.id).execute();
    const count = async (table: 'users' | 'userSettings') =>
      Number((await db.selectFrom(table).select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    // Other users the tests inserted alone lack one too: the restore gives every user theirs.
    const lacking = (await count('users')) + 1 - (await count('userSettings'));
    await restoreBackup(owner, settings, { backupId: backup.id }, { overwrite: false, skipAuditLogs: true });
    const rows = await db.selectFrom('userSettings').selectAll().where('userId', '=', bare.id).execute();
    expect(rows).toHaveLength(1);
    expect(settingsFromRow(rows[0])).toMatchObject({ theme: 'light', language: 'en', sessionTimeout: 30 });
    expect(await count('userSettings')).toBe(await count('users'));
    const entry = await db
      .selectFrom('auditLogs')
      .select('newData')
      .where('action', '=', 'restore')
      .where('recordId', '=', backup.id)
      .executeTakeFirstOrThrow();
    expect(entry.newData).toMatchObject({ defaultSettingsAdded: lacking });
  });

  it('refuses a file with one flipped byte: verify says invalid and restore changes nothing', async () => {
    const backup = await createBackupNow(owner, settings, { tables: ['departments'] });
    const row = await database.db
      .selectFrom('backups')
      .select('fileName')
      .where('id', '=', backup.id)
      .executeTakeFirstOrThrow();
    const file = backupFilePath(settings, row.fileName!);
    const bytes = fs.readFileSync(file);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const verification = await verifyBackup(owner, settings, backup.id);
    expect(verification.valid).toBe(false);
    expect(verification.reason).toMatch(/SHA-256/);
    expect((await verifyBackupFile(file)).valid).toBe(false);
    const before = await dump(owner);
    await expect(restoreBackup(owner, settings, { backupId: backup.id }, { overwrite: true })).rejects.toThrow(
      /integrity check failed/,
    );
    await expect(restoreBackup(owner, settings, { file }, { overwrite: true })).rejects.toMatchObject({
      kind: 'conflict',
    });
    const after = await dump(owner);
    expect(after).toEqual(before);
  });

  it('names the row that fails and rolls everything back', async () => {
    const db = database.db;
    const department = await db
      .insertInto('departments')
      .values({ name: `Clash ${dialect}` })
      .returningAll()
      .executeTakeFirstOrThrow();
    const backup = await createBackupNow(owner, settings, { tables: ['departments'] });
    // The same name under another id: adding the backup's row back must clash on the name.
    await db.deleteFrom('departments').where('id', '=', department.id).execute();
    await db.insertInto('departments').values({ name: department.name }).execute();
    const before = await dump(owner);
    await expect(restoreBackup(owner, settings, { backupId: backup.id }, {})).rejects.toThrow(
      new RegExp(`Departments row ${department.id} could not be restored: another row already has the same name`),
    );
    expect(await dump(owner)).toEqual(before);
  });

  it('keeps the restorer signed in and ends other sessions when users are replaced', async () => {
    const db = database.db;
    const other = await createTestUser(db, { role: 'viewer' });
    const backup = await createBackupNow(owner, settings, { tables: ['users'] });
    const { session: mine } = await createSession(db, {
      userId: owner.actor.kind === 'user' ? owner.actor.user.id : 0,
      ip: '192.0.2.1',
      userAgent: 'vitest',
      rememberMe: false,
    });
    const { session: theirs } = await createSession(db, {
      userId: other.id,
      ip: '192.0.2.2',
      userAgent: 'vitest',
      rememberMe: false,
    });
    const ctx = { ...owner, meta: { ...owner.meta, sessionId: mine.sessionId } };
    await restoreBackup(ctx, settings, { backupId: backup.id }, { overwrite: true });
    const sessions = await db
      .selectFrom('userSessions')
      .select(['sessionId', 'isActive', 'endReason'])
      .where('sessionId', 'in', [mine.sessionId, theirs.sessionId])
      .execute();
    expect(sessions.find((s) => s.sessionId === mine.sessionId)).toMatchObject({ isActive: true });
    expect(sessions.find((s) => s.sessionId === theirs.sessionId)).toMatchObject({
      isActive: false,
      endReason: 'restored',
    });
  });

  it('upgrades rows of an older schema, refuses a newer or too old one', async () => {
    const backup = await createBackupNow(owner, settings, { ...ALL, tables: ['companies'] });
    const row = await database.db
      .selectFrom('backups')
      .select('fileName')
      .where('id', '=', backup.id)
      .executeTakeFirstOrThrow();
    const lines = zlib
      .gunzipSync(fs.readFileSync(backupFilePath(settings, row.fileName!)))
      .toString()
      .trimEnd()
      .split('\n');
    const manifest = JSON.parse(lines[0]);
    const rewrite = (version: string, dropCompany: boolean) => {
      const m = structuredClone(manifest);
      m.schemaVersion = version;
      const out = [JSON.stringify(m)];
      let table = '';
      let drop = -1;
      for (const line of lines.slice(1)) {
        const value = JSON.parse(line);
        if (!Array.isArray(value)) {
          table = value.table ?? table;
          drop =
            dropCompany && (table === 'auditLogs' || table === 'dataVersions')
              ? manifest.tables.find((t: any) => t.name === table).columns.indexOf('companyId')
              : -1;
          out.push(line);
        } else out.push(JSON.stringify(drop >= 0 ? value.filter((_: unknown, i: number) => i !== drop) : value));
      }
      if (dropCompany)
        for (const t of m.tables)
          if (t.name === 'auditLogs' || t.name === 'dataVersions')
            t.columns = t.columns.filter((c: string) => c !== 'companyId');
      out[0] = JSON.stringify(m);
      const file = path.join(database.dataDir, `schema-${version}.jsonl.gz`);
      fs.writeFileSync(file, zlib.gzipSync(out.join('\n') + '\n'));
      return file;
    };
    await expect(restoreBackup(owner, settings, { file: rewrite('9999_future', false) })).rejects.toThrow(
      /newer or unknown version.*9999_future.*this installation is at/,
    );
    await expect(restoreBackup(owner, settings, { file: rewrite('0003_row_counts', false) })).rejects.toThrow(
      /0003_row_counts is too old.*0004_jobs/,
    );
    // Before 0006 audit entries had no company: the upgrade fills it in from their data.
    const db = database.db;
    const audit = await db
      .selectFrom('auditLogs')
      .select(['id', 'companyId'])
      .where('companyId', 'is not', null)
      .orderBy('id')
      .executeTakeFirst();
    if (audit) await db.deleteFrom('auditLogs').where('id', '=', audit.id).execute();
    await restoreBackup(owner, settings, { file: rewrite('0005_company_metrics', true) });
    if (audit)
      expect(
        (await db.selectFrom('auditLogs').select('companyId').where('id', '=', audit.id).executeTakeFirstOrThrow())
          .companyId,
      ).toBe(audit.companyId);
  });

  it("restores a backup made before One Network's shares were computed: stored shares go, a month only the monthly records held is folded in", async () => {
    const db = database.db;
    const company = await db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
    const stored = await db
      .insertInto('broadbandConnections')
      .values({
        companyId: company.id,
        year: 2021,
        month: 6,
        connectionType: 'fixed_fiber',
        activeConnections: 640,
        newThisMonth: 4,
        churnThisMonth: 2,
        revenueCents: null,
        createdBy: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const backup = await createBackupNow(owner, settings, { tables: ['broadbandConnections'] });
    const row = await db.selectFrom('backups').select('fileName').where('id', '=', backup.id).executeTakeFirstOrThrow();
    const lines = zlib
      .gunzipSync(fs.readFileSync(backupFilePath(settings, row.fileName!)))
      .toString()
      .trimEnd()
      .split('\n');
    // As 0035 wrote it: every row with its typed share, and the One Network monthly table.
    const manifest = JSON.parse(lines[0]);
    manifest.schemaVersion = '0035_audit_user_counts';
    const out: string[] = [];
    for (const line of lines.slice(1)) {
      const value = JSON.parse(line);
      if (value.end) break;
      out.push(Array.isArray(value) ? JSON.stringify([...value, 5000]) : line);
    }
    const table = manifest.tables.find((t: { name: string }) => t.name === 'broadbandConnections');
    table.columns = [...table.columns, 'percentageOfTotalHundredths'];
    // June is also in the per-company rows (they win); July only in the monthly records, and
    // August only in the mobile subscription patterns (as written by a user no longer here).
    const monthly = [
      'id',
      'companyId',
      'year',
      'month',
      'totalBroadband',
      'fixedBroadband',
      'fixedBroadbandPercentageHundredths',
      'fixedFwa5gRouter',
      'newConnections',
      'churnConnections',
      'createdBy',
      'createdAt',
      'updatedAt',
    ];
    const patterns = [
      'id',
      'companyId',
      'year',
      'month',
      'totalMobileSubscriptions',
      'dailySubscriptions',
      'dailyNew',
      'dailyChurn',
      'weeklySubscriptions',
      'weeklyNew',
      'weeklyChurn',
      'monthlySubscriptions',
      'monthlyNew',
      'monthlyChurn',
      'createdBy',
      'createdAt',
      'updatedAt',
    ];
    manifest.tables.push(
      { name: 'networkBroadbandRecords', columns: monthly, rows: 2 },
      { name: 'networkSubscriptionPatterns', columns: patterns, rows: 1 },
    );
    manifest.rows += 3;
    out.push(
      JSON.stringify({ table: 'networkBroadbandRecords', rows: 2 }),
      JSON.stringify([
        1,
        company.id,
        2021,
        6,
        2163,
        1681,
        7840,
        482,
        30,
        10,
        null,
        '2021-06-30T00:00:00.000Z',
        '2021-06-30T00:00:00.000Z',
      ]),
      JSON.stringify([
        2,
        company.id,
        2021,
        7,
        2000,
        1500,
        7500,
        500,
        41,
        9,
        null,
        '2021-07-31T00:00:00.000Z',
        '2021-07-31T00:00:00.000Z',
      ]),
      JSON.stringify({ table: 'networkSubscriptionPatterns', rows: 1 }),
      JSON.stringify([
        1,
        company.id,
        2021,
        8,
        600,
        100,
        1,
        2,
        200,
        3,
        4,
        300,
        5,
        6,
        999_999,
        '2021-08-31T00:00:00.000Z',
        '2021-08-31T00:00:00.000Z',
      ]),
    );
    out.push(JSON.stringify({ end: true, rows: manifest.rows }));
    const file = path.join(database.dataDir, 'schema-0035-network.jsonl.gz');
    fs.writeFileSync(file, zlib.gzipSync([JSON.stringify(manifest), ...out].join('\n') + '\n'));
    await db.deleteFrom('broadbandConnections').where('id', '=', stored.id).execute();

    await db
      .deleteFrom('broadbandConnections')
      .where('companyId', '=', company.id)
      .where('year', '=', 2021)
      .where('month', 'in', [6, 7])
      .execute();
    await db
      .deleteFrom('mobileSubscriptions')
      .where('companyId', '=', company.id)
      .where('year', '=', 2021)
      .where('month', '=', 8)
      .execute();

    const result = await restoreBackup(owner, settings, { file });
    const restored = await db
      .selectFrom('broadbandConnections')
      .selectAll()
      .where('id', '=', stored.id)
      .executeTakeFirstOrThrow();
    expect(Number(restored.activeConnections)).toBe(640);
    expect(restored).not.toHaveProperty('percentageOfTotalHundredths');
    const month = (table: 'broadbandConnections' | 'mobileSubscriptions', m: number) =>
      db
        .selectFrom(table)
        .selectAll()
        .where('companyId', '=', company.id)
        .where('year', '=', 2021)
        .where('month', '=', m)
        .execute();
    expect((await month('broadbandConnections', 6)).map((r) => r.connectionType)).toEqual(['fixed_fiber']);
    // July's 41 new and 9 lost connections are split in proportion to the counts (1,500 : 500).
    const july = (await month('broadbandConnections', 7)).map((r) => [
      r.connectionType,
      Number(r.activeConnections),
      Number(r.newThisMonth),
      Number(r.churnThisMonth),
    ]);
    expect(july.sort()).toEqual([
      ['fixed_broadband', 1500, 31, 7],
      ['fixed_fwa_5g', 500, 10, 2],
    ]);
    const august = await month('mobileSubscriptions', 8);
    expect(
      august
        .map((r) => [
          r.subscriptionType,
          Number(r.activeSubscriptions),
          Number(r.newThisMonth),
          Number(r.churnThisMonth),
          r.createdBy,
        ])
        .sort(),
    ).toEqual([
      ['daily', 100, 1, 2, null],
      ['monthly', 300, 5, 6, null],
      ['weekly', 200, 3, 4, null],
    ]);
    expect(result.folded).toEqual([
      { table: 'networkBroadbandRecords', rows: 2, added: 2, into: 'broadbandConnections' },
      { table: 'networkSubscriptionPatterns', rows: 1, added: 3, into: 'mobileSubscriptions' },
    ]);
    expect(foldedSentence(result.folded)).toBe(
      '3 One Network monthly records of an earlier version added 5 per-company rows for the months only they held.',
    );
    // The restore's message on the screen, in the reader's language.
    expect(foldedSentence(result.folded, catalogTranslator()('es'))).toBe(
      '3 registros mensuales de One Network de una versión anterior añadieron 5 filas por empresa para los meses que solo ellos contenían.',
    );
    const audit = await db
      .selectFrom('auditLogs')
      .select('newData')
      .where('action', '=', 'restore')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const data = typeof audit.newData === 'string' ? JSON.parse(audit.newData) : audit.newData;
    expect(data.folded).toHaveLength(2);
  });

  it('keeps the newest scheduled backups, fails interrupted ones, deletes row and file', async () => {
    const system = { db: database.db, actor: systemActor('worker'), meta: {}, runtime: noEngine() } as ServiceContext;
    const made: Awaited<ReturnType<typeof createBackupNow>>[] = [];
    for (let i = 0; i < 3; i++) made.push(await createBackupNow(system, settings, {}, 'scheduled'));
    const scheduled = (await listBackups(owner)).filter((b) => b.type === 'scheduled').map((b) => b.id);
    expect(scheduled).toEqual([made[2].id, made[1].id]);
    expect(await pruneScheduledBackups(system, settings)).toEqual([]);
    const stuck = await database.db
      .insertInto('backups')
      .values({ name: 'stuck', type: 'manual', tables: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    fs.writeFileSync(path.join(settings.dir, `.finhub-backup-${stuck.id}-20260101T000000Z.jsonl.gz.1234.tmp`), 'half');
    expect(await failInterruptedBackups(system, 'Interrupted by restart', { dir: settings.dir })).toEqual([stuck.id]);
    expect(fs.readdirSync(settings.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await deleteBackup(owner, settings, made[2].id);
    expect(fs.readdirSync(settings.dir).some((f) => f.startsWith(`finhub-backup-${made[2].id}-`))).toBe(false);
  });

  it('the backup-create job completes a requested backup once; the scheduled job makes a full one', async () => {
    const system = { db: database.db, actor: systemActor('worker'), meta: {}, runtime: noEngine() } as ServiceContext;
    const row = await database.db
      .insertInto('backups')
      .values({ name: 'queued', type: 'manual', tables: JSON.stringify(['departments']) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const config = testConfig(database.dataDir);
    const first = (await runJobNow(
      JOBS,
      'backup-create',
      { backupId: row.id },
      { db: database.db, settings: config, runtime: noEngine() },
    )) as { status: string; size: number };
    expect(first.status).toBe('completed');
    const stored = await database.db
      .selectFrom('backups')
      .select(['sha256', 'completedAt'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    // At-least-once delivery: a second run leaves the completed backup as it is.
    await runJobNow(
      JOBS,
      'backup-create',
      { backupId: row.id },
      { db: database.db, settings: config, runtime: noEngine() },
    );
    expect(
      await database.db
        .selectFrom('backups')
        .select(['sha256', 'completedAt'])
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow(),
    ).toEqual(stored);
    const scheduled = (await runJobNow(
      JOBS,
      'backup-scheduled',
      {},
      { db: database.db, settings: config, runtime: noEngine() },
    )) as {
      id: number;
    };
    expect(await listBackups(system).then((all) => all.find((b) => b.id === scheduled.id))).toMatchObject({
      type: 'scheduled',
      includeAuditLogs: true,
      includeVersions: true,
      status: 'completed',
    });
  });

  it('bulk-loads a big table with its indexes and keys put back, and names a row whose reference is gone', async () => {
    const db = database.db;
    const schema = async () =>
      dialect === 'postgres'
        ? (
            await sql<{
              d: string;
            }>`select indexdef as d from pg_indexes where schemaname = current_schema() and tablename = 'audit_logs' union all select conname || pg_get_constraintdef(oid) from pg_constraint where conrelid = 'audit_logs'::regclass order by 1`.execute(
              db,
            )
          ).rows.map((r) => r.d)
        : (
            await sql<{
              d: string;
            }>`select name || ':' || coalesce(sql, '') as d from sqlite_master where tbl_name = 'audit_logs' order by 1`.execute(
              db,
            )
          ).rows.map((r) => r.d);
    const before = await schema();
    const author = await createTestUser(db, { role: 'editor' });
    const rows = Array.from({ length: 12_000 }, (_, i) => ({
      tableName: 'bulk_test',
      recordId: i + 1,
      action: 'update',
      userId: author.id,
      actorLabel: author.username,
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto('auditLogs')
        .values(rows.slice(i, i + 1000))
        .execute();
    const backup = await createBackupNow(owner, settings, { tables: ['departments'], includeAuditLogs: true });
    // Entries the database lost (as a retention job would delete them) come back.
    await db.deleteFrom('auditLogs').where('tableName', '=', 'bulk_test').where('recordId', '>', 6000).execute();
    await restoreBackup(owner, settings, { backupId: backup.id }, { overwrite: true });
    expect(
      Number(
        (
          await db
            .selectFrom('auditLogs')
            .select(db.fn.countAll().as('n'))
            .where('tableName', '=', 'bulk_test')
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(12_000);
    expect(await schema()).toEqual(before);
    // The author is gone now: the backup's entries the database lacks name a user it no longer has.
    await db.deleteFrom('users').where('id', '=', author.id).execute();
    const first = await db
      .selectFrom('auditLogs')
      .select('id')
      .where('tableName', '=', 'bulk_test')
      .where('recordId', '=', 6001)
      .executeTakeFirstOrThrow();
    await db.deleteFrom('auditLogs').where('tableName', '=', 'bulk_test').where('recordId', '>', 6000).execute();
    await expect(restoreBackup(owner, settings, { backupId: backup.id }, { overwrite: true })).rejects.toThrow(
      new RegExp(
        `Audit Logs row ${first.id} could not be restored: it refers to a row that is neither in the backup nor in the database`,
      ),
    );
    expect(await schema()).toEqual(before);
    await db.deleteFrom('auditLogs').where('tableName', '=', 'bulk_test').execute();
  });

  describe('who may restore what, and the audit trail', () => {
    const viewerWithBackups = async () =>
      userContext(
        database.db,
        (await createTestUser(database.db, { role: 'viewer', flags: { canAccessBackups: true } })).id,
      );
    const admin = async (companyId: number | null = null) =>
      userContext(database.db, (await createTestUser(database.db, { role: 'admin', companyId })).id);

    it('a holder of the backups flag alone backs up what they may read and never restores', async () => {
      const viewer = await viewerWithBackups();
      const mine = await createBackupNow(viewer, settings, { tables: ['departments', 'budgets'] });
      expect(mine.status).toBe('completed');
      // No selection: every table they may read, never the accounts or the integrations.
      const everything = await createBackupNow(viewer, settings, {});
      expect(everything.tables).toContain('actualExpenses');
      expect(everything.tables).not.toContain('users');
      expect(everything.tables).not.toContain('apiIntegrationSources');
      await expect(createBackupNow(viewer, settings, { tables: ['users'] })).rejects.toMatchObject({
        kind: 'forbidden',
        message: expect.stringMatching(/Users/),
      });
      await expect(
        createBackupNow(viewer, settings, { tables: ['departments'], includeAuditLogs: true }),
      ).rejects.toMatchObject({ kind: 'forbidden' });
      await expect(createBackupNow(viewer, settings, {}, 'scheduled')).rejects.toMatchObject({ kind: 'forbidden' });
      expect(await verifyBackup(viewer, settings, mine.id)).toEqual({ valid: true });
      await expect(restoreBackup(viewer, settings, { backupId: mine.id })).rejects.toMatchObject({ kind: 'forbidden' });
      await expect(restoreBackup(viewer, settings, { backupId: mine.id }, { overwrite: true })).rejects.toMatchObject({
        kind: 'forbidden',
      });
      // They delete what they made, not what others made.
      const others = await createBackupNow(owner, settings, { tables: ['departments'] });
      await expect(deleteBackup(viewer, settings, others.id)).rejects.toMatchObject({
        kind: 'forbidden',
        message: OTHERS_BACKUP_DELETE_REFUSAL,
      });
      await deleteBackup(viewer, settings, mine.id);
      await deleteBackup(viewer, settings, everything.id);
      await deleteBackup(owner, settings, others.id);
    });

    it('accounts come back only by an owner: a deleted admin stays deleted when anyone else restores', async () => {
      const db = database.db;
      const victim = await createTestUser(db, { role: 'admin' });
      const backup = await createBackupNow(owner, settings, { tables: ['users'] });
      await db.deleteFrom('users').where('id', '=', victim.id).execute();
      const refused = [await viewerWithBackups(), await admin(), await admin(1)];
      const before = await dump(owner, ['users', 'userSettings']);
      const audit = (await db.selectFrom('auditLogs').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;
      for (const actor of refused) {
        for (const overwrite of [false, true]) {
          await expect(
            restoreBackup(actor, settings, { backupId: backup.id }, { overwrite, skipAuditLogs: true }),
          ).rejects.toMatchObject({ kind: 'forbidden' });
        }
      }
      await expect(restoreBackup(refused[1], settings, { backupId: backup.id })).rejects.toMatchObject({
        message: RIGHTS_RESTORE_REFUSAL,
      });
      expect(await dump(owner, ['users', 'userSettings'])).toEqual(before);
      expect((await db.selectFrom('auditLogs').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n).toEqual(
        audit,
      );
      expect(
        await db
          .selectFrom('backups')
          .select('id')
          .where('type', '=', 'automated')
          .where('createdAt', '>', backup.createdAt)
          .execute(),
      ).toEqual([]);
      // An owner may, and the CLI (the operator) may.
      await restoreBackup(owner, settings, { backupId: backup.id });
      expect(await db.selectFrom('users').select('role').where('id', '=', victim.id).executeTakeFirst()).toEqual({
        role: 'admin',
      });
      await db.deleteFrom('users').where('id', '=', victim.id).execute();
      await restoreBackup({ db, actor: systemActor('cli'), meta: {}, runtime: noEngine() }, settings, {
        backupId: backup.id,
      });
      expect(await db.selectFrom('users').select('id').where('id', '=', victim.id).executeTakeFirst()).toEqual({
        id: victim.id,
      });
      const entries = await db
        .selectFrom('auditLogs')
        .select(['actorLabel', 'userId', 'newData'])
        .where('action', '=', 'restore')
        .where('recordId', '=', backup.id)
        .orderBy('id')
        .execute();
      expect(entries.map((e) => e.actorLabel)).toEqual([
        owner.actor.kind === 'user' ? owner.actor.user.username : '',
        'cli',
      ]);
    });

    it('an owner’s overwrite that removes accounts names them in its entry; their own entries stay, under their name', async () => {
      const db = database.db;
      const backup = await createBackupNow(owner, settings, { tables: ['users'] });
      const newcomer = await createTestUser(db, { role: 'editor' });
      const theirs = (
        await db
          .insertInto('auditLogs')
          .values({
            tableName: 'departments',
            recordId: 1,
            action: 'update',
            userId: newcomer.id,
            actorLabel: newcomer.username,
            timestamp: new Date().toISOString(),
            companyId: null,
            oldData: null,
            newData: null,
            changes: null,
            ipAddress: null,
            userAgent: null,
            reason: null,
            sessionId: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const result = await restoreBackup(owner, settings, { backupId: backup.id }, { overwrite: true });
      expect(result.tables.find((t) => t.table === 'users')?.deleted).toBe(1);
      expect(
        await db.selectFrom('users').select('id').where('id', '=', newcomer.id).executeTakeFirst(),
      ).toBeUndefined();
      const entry = await db
        .selectFrom('auditLogs')
        .select('newData')
        .where('action', '=', 'restore')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      expect((entry.newData as { removedUsers?: unknown }).removedUsers).toEqual([
        { id: newcomer.id, username: newcomer.username },
      ]);
      // As when an account is deleted: the entry is unlinked from the gone account and keeps its name.
      expect(
        await db
          .selectFrom('auditLogs')
          .select(['userId', 'actorLabel', 'action'])
          .where('id', '=', theirs)
          .executeTakeFirst(),
      ).toEqual({ userId: null, actorLabel: newcomer.username, action: 'update' });
      if (result.safetyBackupId) await deleteBackup(owner, settings, result.safetyBackupId);
    });

    it('an admin not limited to one company restores data tables; a scoped admin does not', async () => {
      const db = database.db;
      const backup = await createBackupNow(owner, settings, { tables: ['departments'] });
      await expect(restoreBackup(await admin(1), settings, { backupId: backup.id })).rejects.toMatchObject({
        kind: 'forbidden',
      });
      const result = await restoreBackup(await admin(), settings, { backupId: backup.id }, { overwrite: true });
      expect(result.tables.map((t) => t.table)).toEqual(['departments']);
      expect(result.safetyBackupId).not.toBeNull();
      // The safety backup is the way back: only an owner deletes it.
      await expect(deleteBackup(await admin(), settings, result.safetyBackupId!)).rejects.toMatchObject({
        kind: 'forbidden',
        message: SAFETY_BACKUP_DELETE_REFUSAL,
      });
      expect(
        await db.selectFrom('backups').select('id').where('id', '=', result.safetyBackupId!).executeTakeFirst(),
      ).toBeDefined();
      await deleteBackup(owner, settings, result.safetyBackupId!);
    });

    it('never deletes or rewrites an audit entry or version: it only adds the ones the database lacks, and always audits itself', async () => {
      const db = database.db;
      const backup = await createBackupNow(owner, settings, {
        tables: ['companies', 'departments', 'expenseCategories', 'actualExpenses'],
        ...ALL,
      });
      // Three audited deletes after the backup.
      const doomed = await db.selectFrom('actualExpenses').select('id').orderBy('id', 'desc').limit(3).execute();
      for (const { id } of doomed) await deleteRecord(owner, actualExpenses, id);
      const trail = async () => ({
        audit: (await db.selectFrom('auditLogs').selectAll().orderBy('id').execute()).map(canonical),
        versions: (await db.selectFrom('dataVersions').selectAll().orderBy('id').execute()).map(canonical),
      });
      const before = await trail();
      const deletes = before.audit.filter(
        (e) => e.includes('"action":"delete"') && e.includes('"tableName":"actual_expenses"'),
      );
      expect(deletes.length).toBeGreaterThanOrEqual(3);

      const result = await restoreBackup(
        owner,
        settings,
        { backupId: backup.id },
        { overwrite: true, skipAuditLogs: true },
      );
      expect(result.tables.map((t) => t.table)).not.toContain('auditLogs');
      const after = await trail();
      // Everything that was there still is, unchanged; the safety backup's and the restore's entries are new.
      expect(after.audit.slice(0, before.audit.length)).toEqual(before.audit);
      expect(after.versions).toEqual(before.versions);
      const own = after.audit.slice(before.audit.length).map((e) => JSON.parse(e));
      expect(own.map((e) => e.action)).toEqual(['create', 'restore']);
      expect(own[1].newData).toMatchObject({
        overwrite: true,
        importedAuditTrail: false,
        safetyBackupId: result.safetyBackupId,
      });
      expect(own[1].newData.tables.find((t: { table: string }) => t.table === 'actualExpenses')).toMatchObject({
        written: expect.any(Number),
        deleted: 0,
      });
      // The deleted expenses are back, their delete entries and versions kept.
      expect(
        await db
          .selectFrom('actualExpenses')
          .select('id')
          .where(
            'id',
            'in',
            doomed.map((d) => d.id),
          )
          .execute(),
      ).toHaveLength(3);

      // With the backup's trail: only what the database lacks is added; nothing is replaced.
      const lost = await db
        .selectFrom('auditLogs')
        .selectAll()
        .where('action', '=', 'create')
        .where('tableName', '=', 'backups')
        .where('recordId', '=', backup.id)
        .executeTakeFirstOrThrow();
      await db.deleteFrom('auditLogs').where('id', '=', lost.id).execute();
      const edited = await db
        .selectFrom('auditLogs')
        .select('id')
        .where('id', '<', lost.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      await db
        .updateTable('auditLogs')
        .set({ reason: 'written since the backup' })
        .where('id', '=', edited.id)
        .execute();
      const again = await restoreBackup(owner, settings, { backupId: backup.id }, { overwrite: true });
      expect(again.tables.find((t) => t.table === 'auditLogs')).toMatchObject({ written: 1, deleted: 0 });
      expect(again.tables.find((t) => t.table === 'dataVersions')).toMatchObject({ written: 0, deleted: 0 });
      expect(
        canonical(await db.selectFrom('auditLogs').selectAll().where('id', '=', lost.id).executeTakeFirstOrThrow()),
      ).toBe(canonical(lost));
      expect(
        (await db.selectFrom('auditLogs').select('reason').where('id', '=', edited.id).executeTakeFirstOrThrow())
          .reason,
      ).toBe('written since the backup');
      const final = await trail();
      for (const entry of after.audit) if (JSON.parse(entry).id !== edited.id) expect(final.audit).toContain(entry);
      expect(final.versions.slice(0, after.versions.length)).toEqual(after.versions);
    });

    it('a version it adds back is active only if its record has no active version', async () => {
      const db = database.db;
      const [first, second] = await db
        .selectFrom('departments')
        .select(['id', 'name'])
        .orderBy('id')
        .limit(2)
        .execute();
      await updateRecord(owner, departments, first.id, { description: 'version one' });
      await updateRecord(owner, departments, second.id, { description: 'version one' });
      const backup = await createBackupNow(owner, settings, { tables: ['departments'], includeVersions: true });
      const versions = (id: number) =>
        db
          .selectFrom('dataVersions')
          .select(['id', 'version', 'isActive'])
          .where('tableName', '=', 'departments')
          .where('recordId', '=', id)
          .orderBy('version')
          .execute();
      const activeAtBackup = (await versions(first.id)).find((v) => v.isActive)!;
      // Since the backup: the first department changed again (a newer active version) and both lost their versions of the backup's time.
      await updateRecord(owner, departments, first.id, { description: 'version two' });
      const activeNow = (await versions(first.id)).find((v) => v.isActive)!;
      await db.deleteFrom('dataVersions').where('id', '=', activeAtBackup.id).execute();
      const secondActive = (await versions(second.id)).find((v) => v.isActive)!;
      await db
        .deleteFrom('dataVersions')
        .where('tableName', '=', 'departments')
        .where('recordId', '=', second.id)
        .execute();
      await restoreBackup(owner, settings, { backupId: backup.id });
      const firstAfter = await versions(first.id);
      expect(firstAfter.filter((v) => v.isActive).map((v) => v.id)).toEqual([activeNow.id]);
      expect(firstAfter.find((v) => v.id === activeAtBackup.id)).toMatchObject({ isActive: false });
      // A record with no versions left gets its own back, the active one active.
      expect((await versions(second.id)).filter((v) => v.isActive).map((v) => v.id)).toEqual([secondActive.id]);
    });

    it('each user keeps at most the quota of manual backups, written one at a time', async () => {
      const db = database.db;
      const maker = await userContext(db, (await createTestUser(db, { role: 'admin' })).id);
      const makerId = maker.actor.kind === 'user' ? maker.actor.user.id : 0;
      // A backup of theirs still being written: the next waits (429 with Retry-After).
      const running = await db
        .insertInto('backups')
        .values({
          name: 'running',
          type: 'manual',
          status: 'in_progress',
          tables: '["departments"]',
          createdBy: makerId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await expect(createBackupNow(maker, settings, { tables: ['departments'] })).rejects.toMatchObject({
        kind: 'rateLimited',
        message: BACKUP_ALREADY_RUNNING,
        retryAfter: expect.any(Number),
      });
      // The database holds the rule too: a second in-progress manual backup of the same user is refused.
      await expect(
        db
          .insertInto('backups')
          .values({ name: 'twin', type: 'manual', status: 'in_progress', tables: '[]', createdBy: makerId })
          .execute(),
      ).rejects.toThrow();
      await db.deleteFrom('backups').where('id', '=', running.id).execute();
      const made = [];
      for (let i = 0; i < MANUAL_BACKUP_QUOTA; i++)
        made.push(await createBackupNow(maker, settings, { tables: ['departments'] }));
      await expect(createBackupNow(maker, settings, { tables: ['departments'] })).rejects.toMatchObject({
        kind: 'conflict',
        message: BACKUP_QUOTA_REACHED,
      });
      // Another user is not held back; and deleting one makes room.
      await expect(createBackupNow(owner, settings, { tables: ['departments'] })).resolves.toMatchObject({
        status: 'completed',
      });
      await deleteBackup(maker, settings, made[0].id);
      await expect(createBackupNow(maker, settings, { tables: ['departments'] })).resolves.toMatchObject({
        status: 'completed',
      });
    });

    it('a backup that cannot start writing fails at once, with the reason', async () => {
      const db = database.db;
      const blocked = { ...settings, dir: path.join(database.dataDir, 'not-a-folder') };
      fs.writeFileSync(blocked.dir, 'a file where the backup folder should be');
      const row = await db
        .insertInto('backups')
        .values({ name: 'blocked', type: 'manual', status: 'in_progress', tables: '["departments"]' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await expect(
        runJobNow(
          JOBS,
          'backup-create',
          { backupId: row.id },
          { db, settings: { ...testConfig(database.dataDir), backups: blocked }, runtime: noEngine() },
        ),
      ).rejects.toThrow();
      expect(
        await db.selectFrom('backups').select(['status', 'error']).where('id', '=', row.id).executeTakeFirstOrThrow(),
      ).toMatchObject({ status: 'failed', error: expect.stringMatching(/ENOTDIR|not a directory/) });
    });
  });

  it('refuses users without the permission or limited to one company', async () => {
    const viewer = await userContext(database.db, (await createTestUser(database.db, { role: 'viewer' })).id);
    await expect(createBackupNow(viewer, settings, {})).rejects.toMatchObject({ kind: 'forbidden' });
    const scoped = await userContext(
      database.db,
      (await createTestUser(database.db, { role: 'admin', companyId: 1 })).id,
    );
    await expect(listBackups(scoped)).resolves.toBeInstanceOf(Array);
    await expect(createBackupNow(scoped, settings, {})).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(restoreBackup(scoped, settings, { backupId: 1 })).rejects.toMatchObject({ kind: 'forbidden' });
  });
});

if (TEST_DIALECTS.includes('postgres')) {
  it('a SQLite backup restores into PostgreSQL and back with equal rows', async () => {
    const source = await seeded('sqlite');
    const target = await createTestDatabase('postgres');
    const back = await createTestDatabase('sqlite');
    try {
      const { migrateToLatest } = await import('../../../db/migrate.ts');
      await migrateToLatest(target.db);
      await migrateToLatest(back.db);
      const system = (db: typeof source.db) =>
        ({ db, actor: systemActor('cli'), meta: {}, runtime: noEngine() }) as ServiceContext;
      const dirOf = (d: TestDatabase): BackupSettings => ({
        dir: path.join(d.dataDir, 'backups'),
        schedule: '0 2 * * *',
        keep: 14,
      });
      const tables = BACKUP_TABLES.filter((t) => t.group === 'data').map((t) => t.name);
      const expected = await dump(system(source.db), tables);

      const first = await createBackupNow(system(source.db), dirOf(source), {});
      const file = backupFilePath(
        dirOf(source),
        (await source.db.selectFrom('backups').select('fileName').where('id', '=', first.id).executeTakeFirstOrThrow())
          .fileName!,
      );
      await restoreBackup(system(target.db), dirOf(target), { file }, { overwrite: true });
      expect(await dump(system(target.db), tables)).toEqual(expected);

      const second = await createBackupNow(system(target.db), dirOf(target), {});
      const file2 = backupFilePath(
        dirOf(target),
        (await target.db.selectFrom('backups').select('fileName').where('id', '=', second.id).executeTakeFirstOrThrow())
          .fileName!,
      );
      await restoreBackup(system(back.db), dirOf(back), { file: file2 }, { overwrite: true });
      expect(await dump(system(back.db), tables)).toEqual(expected);
    } finally {
      await Promise.all([source.destroy(), target.destroy(), back.destroy()]);
    }
  });
}

export type { Database };

if (TEST_DIALECTS.includes('postgres')) {
  it('a big table restored into an empty PostgreSQL database streams in by COPY: every value exact, a refused row named', async () => {
    const source = await seeded('sqlite');
    const target = await createTestDatabase('postgres');
    try {
      const { migrateToLatest } = await import('../../../db/migrate.ts');
      await migrateToLatest(target.db);
      const system = (db: typeof source.db) =>
        ({ db, actor: systemActor('cli'), meta: {}, runtime: noEngine() }) as ServiceContext;
      const settingsOf = (d: TestDatabase): BackupSettings => ({
        dir: path.join(d.dataDir, 'backups'),
        schedule: '0 2 * * *',
        keep: 14,
      });
      const nasty = ['tab\there', 'line\nbreak', 'back\\slash \\N', 'cr\rhere', 'quote " and \'', 'ünïcödé ✓', ''];
      const rows = Array.from({ length: 12_000 }, (_, i) => ({
        tableName: 'copy_test',
        recordId: i + 1,
        action: 'update',
        actorLabel: 'system',
        reason: i % 9 === 8 ? null : nasty[i % nasty.length],
        newData: JSON.stringify({ text: nasty[i % nasty.length], n: i, nested: { ok: i % 2 === 0 } }),
      }));
      for (let i = 0; i < rows.length; i += 1000)
        await source.db
          .insertInto('auditLogs')
          .values(rows.slice(i, i + 1000))
          .execute();
      const tables = ['companies', 'departments', 'auditLogs'];
      const backup = await createBackupNow(system(source.db), settingsOf(source), {
        tables: ['companies', 'departments'],
        includeAuditLogs: true,
      });
      // The backup holds its own 'create' entry (written before the snapshot).
      const expected = await dump(system(source.db), tables as (keyof Database)[]);
      const file = backupFilePath(
        settingsOf(source),
        (await source.db.selectFrom('backups').select('fileName').where('id', '=', backup.id).executeTakeFirstOrThrow())
          .fileName!,
      );

      // A damaged value in the 5,000th audit entry: the COPY is refused, the row named, nothing kept.
      const lines = zlib.gunzipSync(fs.readFileSync(file)).toString().split('\n');
      const manifest = JSON.parse(lines[0]);
      const audit = manifest.tables.find((t: { name: string }) => t.name === 'auditLogs');
      const header = lines.findIndex((l) => l.startsWith('{"table":"auditLogs"'));
      const victim = JSON.parse(lines[header + 5000]);
      const broken = [...victim];
      broken[audit.columns.indexOf('timestamp')] = 'not a time';
      lines[header + 5000] = JSON.stringify(broken);
      const damaged = path.join(target.dataDir, 'damaged.jsonl.gz');
      fs.writeFileSync(damaged, zlib.gzipSync(lines.join('\n')));
      // Without overwrite no safety backup writes an audit entry first: the audit table is empty.
      await expect(restoreBackup(system(target.db), settingsOf(target), { file: damaged })).rejects.toThrow(
        `Audit Logs row ${victim[audit.columns.indexOf('id')]} could not be restored: a value has the wrong type`,
      );
      expect(
        await target.db.selectFrom('auditLogs').select('id').where('tableName', '=', 'copy_test').limit(1).execute(),
      ).toEqual([]);
      expect(await target.db.selectFrom('departments').select('id').limit(1).execute()).toEqual([]);

      const result = await restoreBackup(system(target.db), settingsOf(target), { file });
      expect(result.tables.map((t) => [t.table, t.via])).toEqual([
        ['companies', 'insert'],
        ['departments', 'insert'],
        ['auditLogs', 'copy'],
      ]);
      // Besides the backup's rows, the restore's own entry (always written, after the load).
      const restored = await dump(system(target.db), tables as (keyof Database)[]);
      const [own] = restored.auditLogs.splice(
        restored.auditLogs.findIndex((r) => r.includes('"action":"restore"')),
        1,
      );
      expect(own).toContain('"actorLabel":"cli"');
      expect(restored).toEqual(expected);
    } finally {
      await Promise.all([source.destroy(), target.destroy()]);
    }
  });
}
