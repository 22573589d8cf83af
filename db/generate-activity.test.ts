// The people and history `finhub db generate` adds around a generated book, on every test
// database: the counts per N expenses, audit entries that describe the rows as loaded, edits
// with their two versions, deletes whose ids are never handed out again, sign-in figures that
// follow from the sign-ins, notifications still alive, and the indexes back after the load.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';
import { activityCounts, bookMarks, generateActivity, MAX_GENERATED_USERS } from './generate-activity.ts';
import { generateData, type GenerateResult } from './generate.ts';

const ROWS = 5000;

describe('activityCounts', () => {
  it('scales the history with the book, and the people up to a team’s size', () => {
    expect(activityCounts(1_000_000)).toEqual({
      users: 200,
      audit_logs: 1_000_000,
      data_versions: 100_000,
      notifications: 50_000,
    });
    expect(activityCounts(3_000_000)).toEqual({
      users: MAX_GENERATED_USERS,
      audit_logs: 3_000_000,
      data_versions: 300_000,
      notifications: 150_000,
    });
    expect(activityCounts(5000).users).toBe(1);
  });
});

describe.each(TEST_DIALECTS)('generated activity on %s', (dialect) => {
  let database: TestDatabase;
  let result: GenerateResult;
  const before: Record<string, number> = {};
  let auditIndexes: string[];
  const count = async (table: string) =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(database.db)).rows[0].n);
  const indexesOf = async (table: string) =>
    (dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = ${table} order by name`.execute(
          database.db,
        )
      : await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${table} order by indexname`.execute(
          database.db,
        )
    ).rows.map((r) => r.name);

  /** The audit trail's triggers that are on. */
  const auditTriggers = async () =>
    Number(
      (
        await (
          dialect === 'sqlite'
            ? sql<{
                n: number;
              }>`select count(*) as n from sqlite_master where type = 'trigger' and tbl_name = 'audit_logs'`
            : sql<{
                n: number;
              }>`select count(*) as n from pg_trigger where tgrelid = 'audit_logs'::regclass and not tgisinternal and tgenabled <> 'D'`
        ).execute(database.db)
      ).rows[0].n,
    );

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    for (const table of ['users', 'audit_logs', 'data_versions', 'notifications']) before[table] = await count(table);
    auditIndexes = await indexesOf('audit_logs');
    result = await generateData(database, { rows: ROWS, seed: 7, url: database.url });
  }, 120_000);
  afterAll(() => database?.destroy());

  it('adds users, audit entries, versions and notifications in proportion to the expenses', async () => {
    expect(result.inserted).toEqual({
      actual_expenses: ROWS,
      budgets: ROWS / 10,
      revenue_projections: ROWS / 20,
      actual_revenue: ROWS / 10,
      users: 1,
      audit_logs: ROWS,
      data_versions: ROWS / 10,
      notifications: ROWS / 20,
    });
    for (const table of ['users', 'audit_logs', 'data_versions', 'notifications'] as const) {
      expect(await count(table), table).toBe(before[table] + result.inserted[table]);
    }
    expect(await indexesOf('audit_logs')).toEqual(auditIndexes);
  });

  it('writes each create entry with the row as it was entered, and edits with their two versions', async () => {
    const creates = await database.db
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'actual_expenses')
      .where('action', '=', 'create')
      .orderBy('id')
      .limit(200)
      .execute();
    expect(creates.length).toBe(200);
    const edited = new Set(
      (await database.db.selectFrom('auditLogs').select('recordId').where('action', '=', 'update').execute()).map(
        (r) => r.recordId,
      ),
    );
    let compared = 0;
    for (const entry of creates) {
      const row = await database.db
        .selectFrom('actualExpenses')
        .selectAll()
        .where('id', '=', entry.recordId!)
        .executeTakeFirstOrThrow();
      expect(entry.companyId).toBe(row.companyId);
      expect(entry.userId).not.toBeNull();
      if (!edited.has(entry.recordId)) {
        expect(entry.newData).toEqual(row);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);

    const update = await database.db
      .selectFrom('auditLogs')
      .selectAll()
      .where('action', '=', 'update')
      .where('tableName', '=', 'actual_expenses')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const row = await database.db
      .selectFrom('actualExpenses')
      .selectAll()
      .where('id', '=', update.recordId!)
      .executeTakeFirstOrThrow();
    expect(update.newData).toEqual(row);
    const [field, change] = Object.entries(update.changes!)[0];
    expect(change.new).toEqual(row[field as keyof typeof row]);
    expect(change.old).not.toEqual(change.new);
    const versions = await database.db
      .selectFrom('dataVersions')
      .select(['version', 'action', 'isActive', 'data'])
      .where('tableName', '=', 'actual_expenses')
      .where('recordId', '=', update.recordId!)
      .orderBy('version')
      .execute();
    expect(versions.map((v) => [v.version, v.action, v.isActive])).toEqual([
      [1, 'create', false],
      [2, 'update', true],
    ]);
    expect(versions[1].data).toEqual(row);

    const doubleActive = await sql<{
      n: number;
    }>`select count(*) as n from (select table_name, record_id from data_versions where is_active = ${dialect === 'sqlite' ? sql`1` : sql`true`} group by table_name, record_id having count(*) > 1) d`.execute(
      database.db,
    );
    expect(Number(doubleActive.rows[0].n)).toBe(0);
  });

  it('names deleted ids that no later row can take', async () => {
    const deletes = await database.db
      .selectFrom('auditLogs')
      .select(['recordId', 'oldData'])
      .where('action', '=', 'delete')
      .execute();
    expect(deletes.length).toBeGreaterThan(0);
    const top = await database.db
      .selectFrom('actualExpenses')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    for (const d of deletes) {
      expect(d.recordId).toBeGreaterThan(Number(top.id));
      expect((d.oldData as { id: number }).id).toBe(d.recordId);
    }
    const template = await database.db
      .selectFrom('actualExpenses')
      .selectAll()
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const { id: _id, ...values } = template;
    const added = await database.db
      .insertInto('actualExpenses')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(added.id).toBeGreaterThan(Math.max(...deletes.map((d) => d.recordId!)));
  });

  it('gives the generated users sign-ins that match their figures', async () => {
    const users = await database.db
      .selectFrom('users')
      .select(['id', 'role', 'email', 'loginCount', 'lastLoginAt', 'passwordHash'])
      .where('id', '>', 1)
      .execute();
    expect(users.length).toBe(1);
    for (const user of users) {
      expect(['owner', 'admin', 'editor', 'viewer']).toContain(user.role);
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      const logins = await database.db
        .selectFrom('auditLogs')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('timestamp').as('last')])
        .where('action', '=', 'login')
        .where('userId', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(user.loginCount).toBe(Number(logins.n));
      if (user.loginCount)
        expect(new Date(user.lastLoginAt!).toISOString()).toBe(new Date(logins.last as string).toISOString());
    }
  });

  it('sends notifications that have not expired, some of them read', async () => {
    const now = new Date().toISOString();
    const expired = await database.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('expiresAt', '<=', now)
      .executeTakeFirstOrThrow();
    expect(Number(expired.n)).toBe(0);
    const states = await database.db
      .selectFrom('userNotificationSettings as s')
      .innerJoin('notifications as n', 'n.id', 's.notificationId')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(states.n)).toBeGreaterThan(0);
  });

  it("a large load turns the trail's triggers off and counts its entries again", async () => {
    const marks = await bookMarks(database);
    await generateData(database, { rows: 2000, related: false, seed: 9, url: database.url });
    const triggers = await auditTriggers();
    const added = await generateActivity(database, { rows: 2000, seed: 9, marks, url: database.url, bulkFrom: 1 });
    expect(added.audit_logs).toBe(2000);
    const counted = await database.db
      .selectFrom('auditCounts')
      .select((eb) => eb.fn.sum<number>('entries').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(await count('audit_logs'));
    const after = await auditTriggers();
    expect(after).toBe(triggers);
    expect(after).toBeGreaterThan(0);
    expect(await indexesOf('audit_logs')).toEqual(auditIndexes);
  });

  it('adds nothing but expenses when asked for expenses only', async () => {
    const audit = await count('audit_logs');
    const again = await generateData(database, { rows: 100, related: false, seed: 8, url: database.url });
    expect(again.inserted).toMatchObject({
      actual_expenses: 100,
      budgets: 0,
      users: 0,
      audit_logs: 0,
      data_versions: 0,
      notifications: 0,
    });
    expect(await count('audit_logs')).toBe(audit);
  });
});
