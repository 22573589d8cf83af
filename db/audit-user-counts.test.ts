// The audit entries per signed-in user and action kept by triggers (migration 0035) on every test
// dialect: they follow inserts, deletes, a change of action or user and a deleted user (the foreign
// key sets the entries' user to null), and recountAuditEntries counts them again.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../test/database.ts';
import { recountAuditEntries } from './audit-counts.ts';
import { countedForUser } from './audit-user-counts.ts';
import type { Database } from './types.ts';

/** The kept counts per user and action, and the same counted from the trail. */
async function keptAndCounted(db: Kysely<Database>) {
  const kept = await db
    .selectFrom('auditUserCounts')
    .select(['userId', 'action', 'entries'])
    .where('entries', '!=', 0)
    .orderBy('userId')
    .orderBy('action')
    .execute();
  const { rows } = await sql<{
    userId: number;
    action: string;
    entries: number;
  }>`select a.user_id, a.action, count(*) as entries from audit_logs a
    where ${sql.raw(countedForUser('a'))} group by a.user_id, a.action order by 1, 2`.execute(db);
  const shape = (r: { userId: number; action: string; entries: number }) => [
    Number(r.userId),
    r.action,
    Number(r.entries),
  ];
  return [kept.map(shape), rows.map(shape)];
}

describe.each(TEST_DIALECTS)('audit entries per user on %s', (dialect) => {
  let database: TestDatabase;
  let users: number[];

  const entry = (userId: number | null, action: string, i: number) => ({
    tableName: 'budgets',
    recordId: 9000 + i,
    action,
    userId,
    timestamp: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
    companyId: null,
    oldData: null,
    newData: null,
    changes: null,
    ipAddress: null,
    userAgent: null,
    reason: null,
    sessionId: null,
    actorLabel: 'per-user-test',
  });
  const kept = async (userId: number, action: string) =>
    Number(
      (
        await database.db
          .selectFrom('auditUserCounts')
          .select('entries')
          .where('userId', '=', userId)
          .where('action', '=', action)
          .executeTakeFirst()
      )?.entries ?? 0,
    );

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    const db = database.db;
    users = [];
    for (const name of ['first', 'second']) {
      users.push(
        (
          await db
            .insertInto('users')
            .values({
              username: `${name}-${dialect}`,
              email: `${name}-${dialect}@example.com`,
              passwordHash: 'x',
              role: 'editor',
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    }
  });
  afterAll(() => database?.destroy());

  it('follow inserts, deletes, a change of action or user, and a deleted user', async () => {
    const db = database.db;
    const [a, b] = users;
    await db
      .insertInto('auditLogs')
      .values([
        entry(a, 'create', 1),
        entry(a, 'create', 2),
        entry(a, 'update', 3),
        entry(a, 'delete', 4),
        entry(b, 'create', 5),
        entry(b, 'update', 6),
        entry(null, 'create', 7),
      ])
      .execute();
    expect([await kept(a, 'create'), await kept(a, 'update'), await kept(b, 'create')]).toEqual([2, 1, 1]);
    let [k, c] = await keptAndCounted(db);
    expect(k).toEqual(c);

    await db.deleteFrom('auditLogs').where('recordId', '=', 9002).where('actorLabel', '=', 'per-user-test').execute();
    // A counted entry becomes another counted action, an uncounted one becomes counted, and one moves to another user.
    await db
      .updateTable('auditLogs')
      .set({ action: 'update' })
      .where('recordId', '=', 9001)
      .where('actorLabel', '=', 'per-user-test')
      .execute();
    await db
      .updateTable('auditLogs')
      .set({ action: 'create' })
      .where('recordId', '=', 9004)
      .where('actorLabel', '=', 'per-user-test')
      .execute();
    await db
      .updateTable('auditLogs')
      .set({ userId: b })
      .where('recordId', '=', 9003)
      .where('actorLabel', '=', 'per-user-test')
      .execute();
    await db
      .updateTable('auditLogs')
      .set({ userId: a })
      .where('recordId', '=', 9007)
      .where('actorLabel', '=', 'per-user-test')
      .execute();
    await db
      .updateTable('auditLogs')
      .set({ action: 'delete' })
      .where('recordId', '=', 9006)
      .where('actorLabel', '=', 'per-user-test')
      .execute();
    expect([
      await kept(a, 'create'),
      await kept(a, 'update'),
      await kept(b, 'create'),
      await kept(b, 'update'),
    ]).toEqual([2, 1, 1, 1]);
    [k, c] = await keptAndCounted(db);
    expect(k).toEqual(c);

    // Deleting a user sets their entries' user to null (a foreign key action): they leave the count.
    await db.deleteFrom('users').where('id', '=', b).execute();
    expect([await kept(b, 'create'), await kept(b, 'update')]).toEqual([0, 0]);
    [k, c] = await keptAndCounted(db);
    expect(k).toEqual(c);
    expect(k.length).toBeGreaterThan(0);
  });

  it("leave out work on one's own account: one's own users row and one's settings, on insert, delete and move", async () => {
    const db = database.db;
    const [a] = users;
    const third = (
      await db
        .insertInto('users')
        .values({
          username: `third-${dialect}`,
          email: `third-${dialect}@example.com`,
          passwordHash: 'x',
          role: 'editor',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const before = [await kept(a, 'create'), await kept(a, 'update')];
    const own = (table: string, recordId: number, action: string, userId: number, i: number) => ({
      ...entry(userId, action, i),
      tableName: table,
      recordId,
      actorLabel: 'self-service-test',
    });
    await db
      .insertInto('auditLogs')
      .values([
        // A password change and a profile edit of one's own account, one's settings created and changed: not counted.
        own('users', a, 'update', a, 20),
        own('users', a, 'update', a, 21),
        own('user_settings', 777, 'create', a, 22),
        own('user_settings', 777, 'update', a, 23),
        // Managing someone else's account is work: counted.
        own('users', third, 'update', a, 24),
      ])
      .execute();
    expect([await kept(a, 'create'), await kept(a, 'update')]).toEqual([before[0], before[1] + 1]);
    let [k, c] = await keptAndCounted(db);
    expect(k).toEqual(c);
    // Deleting the managed user changes no count of a; deleting a's own entries takes nothing off.
    await db
      .deleteFrom('auditLogs')
      .where('actorLabel', '=', 'self-service-test')
      .where('tableName', '=', 'user_settings')
      .execute();
    await db
      .updateTable('auditLogs')
      .set({ recordId: third })
      .where('actorLabel', '=', 'self-service-test')
      .where('recordId', '=', a)
      .where('timestamp', '=', entry(a, 'update', 20).timestamp)
      .execute();
    expect([await kept(a, 'create'), await kept(a, 'update')]).toEqual([before[0], before[1] + 2]);
    [k, c] = await keptAndCounted(db);
    expect(k).toEqual(c);
    await recountAuditEntries(db);
    expect([await kept(a, 'create'), await kept(a, 'update')]).toEqual([before[0], before[1] + 2]);
  });

  it('are counted again from the rows', async () => {
    await database.db.updateTable('auditUserCounts').set({ entries: 12345 }).execute();
    await database.db
      .insertInto('auditUserCounts')
      .values({ userId: users[0], action: 'restore', entries: 7 })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await recountAuditEntries(database.db);
    const [k, c] = await keptAndCounted(database.db);
    expect(k).toEqual(c);
    expect(
      await database.db.selectFrom('auditUserCounts').select('userId').where('action', '=', 'restore').execute(),
    ).toEqual([]);
  });
});
