// Server-side sessions (docs/security.md): idle timeout = sessionTimeout, absolute lifetime =
// autoLogout (or 30 days with Remember me), and deactivation ends a session at once.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import type { Db } from '../context.ts';
import { createSession, endSessions, PUBLIC_USER_COLUMNS, resolveSession } from './sessions.server.ts';
import { settingsFromRow } from './user-settings-row.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const T0 = new Date('2031-03-10T09:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe.each(TEST_DIALECTS)('sessions on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let userId: number;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    userId = (await createTestUser(db, { role: 'editor' })).id;
  });
  afterAll(() => database?.destroy());

  const row = (id: number) => db.selectFrom('userSessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('resolves a fresh session to its user, never with the password hash', async () => {
    const { token, session } = await createSession(
      db,
      { userId, rememberMe: false, ip: '203.0.113.9', userAgent: 'UA' },
      T0,
    );
    const resolved = await resolveSession(db, token, at(MINUTE));
    expect(resolved?.user).toMatchObject({ id: userId, role: 'editor', isActive: true });
    expect(resolved?.user).not.toHaveProperty('passwordHash');
    expect(resolved?.session).toEqual({
      id: session.id,
      sessionId: session.sessionId,
      rememberMe: false,
      expiresAt: session.expiresAt,
    });
    expect(session.expiresAt).toBe(at(480 * MINUTE).toISOString());
  });

  it("brings the user's settings row along, as a read of the row gives it, and only the public columns as the user", async () => {
    const { id } = await createTestUser(db, { role: 'viewer' });
    const { token } = await createSession(db, { userId: id, rememberMe: false }, T0);
    const before = await resolveSession(db, token, at(MINUTE));
    expect(before?.settings).toBeNull();
    expect(Object.keys(before!.user).sort()).toEqual([...PUBLIC_USER_COLUMNS].sort());
    await db
      .insertInto('userSettings')
      .values({
        userId: id,
        theme: 'dark',
        compactSidebar: true,
        animations: false,
        notificationTypes: JSON.stringify({
          system: false,
          financial: true,
          api: true,
          user: true,
          security: true,
        }) as never,
      })
      .execute();
    const after = await resolveSession(db, token, at(2 * MINUTE));
    expect(after?.settings).toEqual(
      settingsFromRow(
        await db.selectFrom('userSettings').selectAll().where('userId', '=', id).executeTakeFirstOrThrow(),
      ),
    );
    expect(after?.settings).toMatchObject({
      userId: id,
      theme: 'dark',
      compactSidebar: true,
      animations: false,
      emailNotifications: true,
      notificationTypes: { system: false },
    });
    expect(Object.keys(after!.user).sort()).toEqual([...PUBLIC_USER_COLUMNS].sort());
    expect(after?.user.id).toBe(id);
  });

  it('rejects unknown tokens', async () => {
    expect(await resolveSession(db, crypto.randomBytes(32).toString('base64url'))).toBeNull();
    expect(await resolveSession(db, '')).toBeNull();
  });

  it('ends a session idle longer than the timeout (30 minutes by default)', async () => {
    const { token, session } = await createSession(db, { userId, rememberMe: false }, T0);
    expect(await resolveSession(db, token, at(29 * MINUTE))).not.toBeNull();
    // Activity at minute 29 moved the idle clock: minute 58 is still within 30 minutes of it.
    expect(await resolveSession(db, token, at(58 * MINUTE))).not.toBeNull();
    expect(await resolveSession(db, token, at(89 * MINUTE))).toBeNull();
    expect(await row(session.id)).toMatchObject({ isActive: false, endReason: 'idle' });
    // Once ended, it stays ended.
    expect(await resolveSession(db, token, at(90 * MINUTE))).toBeNull();
  });

  it("follows the user's own idle timeout and absolute lifetime", async () => {
    const user = await createTestUser(db);
    await db.insertInto('userSettings').values({ userId: user.id, sessionTimeout: 120, autoLogout: 60 }).execute();
    const { token, session } = await createSession(db, { userId: user.id, rememberMe: false }, T0);
    expect(session.expiresAt).toBe(at(60 * MINUTE).toISOString());
    // 45 idle minutes are fine with a 120-minute timeout…
    expect(await resolveSession(db, token, at(45 * MINUTE))).not.toBeNull();
    // …but the absolute lifetime ends the session however active it is.
    expect(await resolveSession(db, token, at(59 * MINUTE))).not.toBeNull();
    expect(await resolveSession(db, token, at(60 * MINUTE))).toBeNull();
    expect(await row(session.id)).toMatchObject({ isActive: false, endReason: 'expired' });
  });

  it('the default absolute lifetime (480 minutes) ends even an active session', async () => {
    const { token, session } = await createSession(db, { userId, rememberMe: false }, T0);
    for (let minute = 20; minute < 480; minute += 20) {
      expect(await resolveSession(db, token, at(minute * MINUTE)), `minute ${minute}`).not.toBeNull();
    }
    expect(await resolveSession(db, token, at(481 * MINUTE))).toBeNull();
    expect(await row(session.id)).toMatchObject({ isActive: false, endReason: 'expired' });
  });

  it('remember me survives idleness but not its 30 days', async () => {
    const { token, session } = await createSession(db, { userId, rememberMe: true }, T0);
    expect(session.expiresAt).toBe(at(30 * DAY).toISOString());
    expect(await resolveSession(db, token, at(5 * 60 * MINUTE))).not.toBeNull();
    expect(await resolveSession(db, token, at(29 * DAY))).not.toBeNull();
    expect(await resolveSession(db, token, at(30 * DAY + 1000))).toBeNull();
    expect(await row(session.id)).toMatchObject({ isActive: false, endReason: 'expired' });
  });

  it("rejects a deactivated user's session at once", async () => {
    const user = await createTestUser(db);
    const { token, session } = await createSession(db, { userId: user.id, rememberMe: true });
    expect(await resolveSession(db, token)).not.toBeNull();
    await db.updateTable('users').set({ isActive: false }).where('id', '=', user.id).execute();
    expect(await resolveSession(db, token)).toBeNull();
    expect((await row(session.id)).isActive).toBe(false);
    // Reactivation does not bring the ended session back.
    await db.updateTable('users').set({ isActive: true }).where('id', '=', user.id).execute();
    expect(await resolveSession(db, token)).toBeNull();
  });

  it('refreshes lastSeenAt at most once a minute', async () => {
    const { token, session } = await createSession(db, { userId, rememberMe: false }, T0);
    await resolveSession(db, token, at(30_000));
    expect((await row(session.id)).lastSeenAt).toBe(T0.toISOString());
    await resolveSession(db, token, at(2 * MINUTE));
    expect((await row(session.id)).lastSeenAt).toBe(at(2 * MINUTE).toISOString());
  });

  it('endSessions adds durations to the user counters', async () => {
    const user = await createTestUser(db);
    await db.updateTable('users').set({ loginCount: 2 }).where('id', '=', user.id).execute();
    const a = await createSession(db, { userId: user.id, rememberMe: false }, T0);
    const b = await createSession(db, { userId: user.id, rememberMe: false }, at(5 * MINUTE));
    const keep = await createSession(db, { userId: user.id, rememberMe: false }, T0);

    expect(await endSessions(db, { sessionRowId: a.session.id }, 'logout', at(10 * MINUTE))).toBe(1);
    expect((await row(a.session.id)).sessionDuration).toBe(600);
    // An ended session is not ended (or counted) twice.
    expect(await endSessions(db, { token: a.token }, 'logout', at(20 * MINUTE))).toBe(0);

    // All but one: the rest of the user's sessions end.
    expect(
      await endSessions(
        db,
        { userId: user.id, exceptSessionRowId: keep.session.id },
        'password_changed',
        at(30 * MINUTE),
      ),
    ).toBe(1);
    expect(await row(b.session.id)).toMatchObject({ isActive: false, endReason: 'password_changed' });
    expect((await row(keep.session.id)).isActive).toBe(true);

    const counters = await db
      .selectFrom('users')
      .select(['totalSessionDuration', 'averageSessionDuration'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    // a: 600 s; b ended by a password change counts up to its last activity (its start): 0 s.
    expect(counters.totalSessionDuration).toBe(600);
    expect(counters.averageSessionDuration).toBe(300);
  });
});
