// Sign-in throttling (5 failures per account and address or 20 per address in 15 minutes →
// 429 with Retry-After; failures per account from anywhere only slow answers down) and the API rate limits (100 per minute, 1000 per hour), kept in the database.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { compiledShapes } from '../../../db/compiled-cache.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';
import { changePassword, login } from '../../features/auth/auth.server.ts';
import type { Db } from '../context.ts';
import {
  API_RATE_LIMITS,
  assertCurrentPasswordAllowed,
  TOO_MANY_ATTEMPTS,
  assertLoginAllowed,
  LOGIN_SLOWDOWN_BASE_MS,
  LOGIN_SLOWDOWN_MAX_MS,
  loginSlowdownMs,
  consumeRateLimit,
  createMemoryRateLimiter,
  purgeLoginAttempts,
  rateLimitWindows,
  recordLoginAttempt,
} from './throttle.server.ts';
import { systemActor } from '../context.ts';
import { userContext, noEngine } from '../../../test/context.ts';
import { rejection } from '../../../test/assertions.ts';

const MINUTE = 60_000;

describe.each(TEST_DIALECTS)('sign-in throttle on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let n = 0;
  const freshIp = () => `192.0.2.${++n}`;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database?.destroy());

  const attempt = (email: string, password: string, ip: string) => login(db, { ip }, { email, password });

  it('the sixth attempt on an account from the same address after five failures is a 429 with retryAfter, even with the right password', async () => {
    const user = await createTestUser(db);
    const ip = freshIp();
    for (let i = 0; i < 5; i++)
      expect((await rejection(attempt(user.email, `wrong-${i}-password`, ip))).status).toBe(401);
    const blocked = await rejection(attempt(user.email, TEST_PASSWORD, ip));
    expect(blocked.status).toBe(429);
    expect(blocked.kind).toBe('rateLimited');
    expect(blocked.retryAfter).toBeGreaterThan(14 * 60);
    expect(blocked.retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.message).toMatch(/too many/i);
    // The same account in another letter case is the same account.
    expect((await rejection(attempt(user.email.toUpperCase(), TEST_PASSWORD, ip))).status).toBe(429);
    const sessions = await db.selectFrom('userSessions').select('id').where('userId', '=', user.id).execute();
    expect(sessions).toHaveLength(0);
  });

  it('failures from address A never lock the owner out from address B: they only slow sign-ins down', async () => {
    const user = await createTestUser(db);
    const attacker = freshIp();
    const waits: number[] = [];
    const delay = async (ms: number) => void waits.push(ms);
    const from = (password: string, ip: string) => login(db, { ip }, { email: user.email, password }, null, { delay });
    for (let i = 0; i < 5; i++) expect((await rejection(from(`wrong-${i}-password`, attacker))).status).toBe(401);
    expect(waits).toEqual([]);
    expect((await rejection(from(TEST_PASSWORD, attacker))).status).toBe(429);
    // The real owner, elsewhere, signs in: answered after a short delay, not refused.
    await expect(from(TEST_PASSWORD, freshIp())).resolves.toMatchObject({ user: { id: user.id } });
    expect(waits).toEqual([250]);
  });

  it('an attacker spreading failures over many addresses gets a growing delay, capped, never a lock-out', async () => {
    const user = await createTestUser(db);
    const waits: number[] = [];
    const delay = async (ms: number) => void waits.push(ms);
    for (let i = 0; i < 12; i++) {
      expect(
        (
          await rejection(
            login(db, { ip: freshIp() }, { email: user.email, password: 'wrong-password' }, null, { delay }),
          )
        ).status,
      ).toBe(401);
    }
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
    expect(loginSlowdownMs(4)).toBe(0);
    expect(loginSlowdownMs(5)).toBe(LOGIN_SLOWDOWN_BASE_MS);
    expect(loginSlowdownMs(50)).toBe(LOGIN_SLOWDOWN_MAX_MS);
    await expect(
      login(db, { ip: freshIp() }, { email: user.email, password: TEST_PASSWORD }, null, { delay }),
    ).resolves.toMatchObject({ user: { id: user.id } });
    // The success clears the account's count: no delay any more.
    await login(db, { ip: freshIp() }, { email: user.email, password: TEST_PASSWORD }, null, { delay });
    expect(waits.at(-1)).toBe(4000);
    expect(waits).toHaveLength(8);
  });

  it('unknown e-mail addresses are throttled the same way', async () => {
    const email = `ghost-${crypto.randomUUID()}@example.com`;
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await rejection(attempt(email, 'whatever-pass', ip))).status).toBe(401);
    const blocked = await rejection(attempt(email, 'whatever-pass', ip));
    expect(blocked.status).toBe(429);
    expect(blocked.retryAfter).toBeGreaterThan(0);
  });

  it('a successful sign-in resets the account count', async () => {
    const user = await createTestUser(db);
    const ip = freshIp();
    for (let i = 0; i < 4; i++) expect((await rejection(attempt(user.email, 'wrong-password', ip))).status).toBe(401);
    await attempt(user.email, TEST_PASSWORD, ip);
    // Four more failures after the success: not yet five.
    for (let i = 0; i < 4; i++) expect((await rejection(attempt(user.email, 'wrong-password', ip))).status).toBe(401);
    await expect(attempt(user.email, TEST_PASSWORD, ip)).resolves.toMatchObject({ user: { id: user.id } });
  });

  it('twenty failures from one address block that address for every account', async () => {
    const ip = freshIp();
    // Nineteen earlier failures for different accounts (recorded as login() records them)…
    for (let i = 0; i < 19; i++)
      await recordLoginAttempt(db, `spray-${i}-${crypto.randomUUID()}@example.com`, ip, false);
    // …still let a twentieth attempt through; its failure completes the twenty.
    expect(
      (await rejection(attempt(`spray-20-${crypto.randomUUID()}@example.com`, 'sprayed-password', ip))).status,
    ).toBe(401);
    const user = await createTestUser(db);
    const blocked = await rejection(attempt(user.email, TEST_PASSWORD, ip));
    expect(blocked.status).toBe(429);
    expect(blocked.retryAfter).toBeGreaterThan(0);
    // The same account from another address is fine.
    await expect(attempt(user.email, TEST_PASSWORD, freshIp())).resolves.toMatchObject({ user: { id: user.id } });
  });

  it('counts only the last 15 minutes and tells how long to wait', async () => {
    const email = `window-${crypto.randomUUID()}@example.com`;
    const ip = freshIp();
    const now = new Date('2031-05-01T12:00:00.000Z');
    const ago = (minutes: number) => new Date(now.getTime() - minutes * MINUTE);
    // Five failures, the oldest 16 minutes ago: only four count.
    for (const minutes of [16, 10, 8, 6, 4]) await recordLoginAttempt(db, email, ip, false, ago(minutes));
    await expect(assertLoginAllowed(db, email, ip, now)).resolves.toBeUndefined();
    // A fifth inside the window: blocked until the oldest counted one (10 minutes ago) expires.
    await recordLoginAttempt(db, email, ip, false, ago(2));
    const error = await rejection(assertLoginAllowed(db, email, ip, now));
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(5 * 60);
    expect(error.message).toBe('Too many failed login attempts. Please try again in 5 minutes.');
    // Five minutes later it is allowed again.
    await expect(assertLoginAllowed(db, email, ip, new Date(now.getTime() + 5 * MINUTE))).resolves.toBeUndefined();
  });
});

describe.each(TEST_DIALECTS)('wrong current passwords on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database?.destroy());

  it('five wrong current passwords in 15 minutes answer 429 with retryAfter, even with the right one; other users are not affected', async () => {
    const user = await createTestUser(db);
    const other = await createTestUser(db);
    const ctx = await userContext(db, user.id);
    const change = (currentPassword: string) =>
      changePassword(ctx, user.id, { currentPassword, newPassword: 'Brand-New-Pass-1' });
    for (let i = 0; i < 5; i++) {
      const error = await rejection(change(`Wrong-Current-${i}`));
      expect(error.status).toBe(400);
      expect(error.errors).toEqual([{ field: 'currentPassword', message: 'Current password is incorrect' }]);
    }
    const blocked = await rejection(change(TEST_PASSWORD));
    expect(blocked.status).toBe(429);
    expect(blocked.message).toBe(TOO_MANY_ATTEMPTS);
    expect(blocked.retryAfter).toBeGreaterThan(14 * 60);
    // The password did not change; another user is free to change theirs; sign-ins are untouched.
    await expect(
      login(db, { ip: '192.0.2.200' }, { email: user.email, password: TEST_PASSWORD }),
    ).resolves.toBeTruthy();
    await changePassword(await userContext(db, other.id), other.id, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'Brand-New-Pass-1',
    });
    // After the window the right password works again.
    await expect(
      assertCurrentPasswordAllowed(db, user.id, new Date(Date.now() + 16 * MINUTE)),
    ).resolves.toBeUndefined();
  });

  it('a success clears the count', async () => {
    const user = await createTestUser(db);
    const ctx = await userContext(db, user.id);
    for (let i = 0; i < 4; i++)
      await rejection(
        changePassword(ctx, user.id, { currentPassword: 'Wrong-Current-1', newPassword: 'Brand-New-Pass-1' }),
      );
    await changePassword(ctx, user.id, { currentPassword: TEST_PASSWORD, newPassword: 'Brand-New-Pass-1' });
    for (let i = 0; i < 4; i++)
      expect(
        (
          await rejection(
            changePassword(ctx, user.id, { currentPassword: 'Wrong-Current-1', newPassword: 'Brand-New-Pass-2' }),
          )
        ).status,
      ).toBe(400);
    await changePassword(ctx, user.id, { currentPassword: 'Brand-New-Pass-1', newPassword: 'Brand-New-Pass-2' });
  });
});

describe.each(TEST_DIALECTS)('purging old sign-in attempts on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
  });
  afterAll(() => database?.destroy());

  it('deletes attempts older than the given days, keeps the rest, and may run twice', async () => {
    const db = database.db;
    const now = new Date('2026-03-02T12:00:00.000Z');
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    await recordLoginAttempt(db, 'old@example.com', '192.0.2.1', false, daysAgo(31));
    await recordLoginAttempt(db, 'older@example.com', '192.0.2.1', true, daysAgo(90));
    await recordLoginAttempt(db, 'recent@example.com', '192.0.2.1', false, daysAgo(29));
    const ctx = { db, actor: systemActor('worker'), meta: {}, runtime: noEngine() };
    expect(await purgeLoginAttempts(ctx, { olderThanDays: 30, now })).toEqual({ deleted: 2 });
    expect(await purgeLoginAttempts(ctx, { olderThanDays: 30, now })).toEqual({ deleted: 0 });
    expect((await db.selectFrom('loginAttempts').select('email').execute()).map((r) => r.email)).toEqual([
      'recent@example.com',
    ]);
    expect(await purgeLoginAttempts(ctx, { olderThanDays: 1, now })).toEqual({ deleted: 1 });
  });

  it('may be run by the system or an administrator, not by other users', async () => {
    const editor = await createTestUser(database.db, { role: 'editor' });
    const admin = await createTestUser(database.db, { role: 'admin' });
    expect(
      (await rejection(purgeLoginAttempts(await userContext(database.db, editor.id), { olderThanDays: 30 }))).status,
    ).toBe(403);
    await expect(purgeLoginAttempts(await userContext(database.db, admin.id), { olderThanDays: 30 })).resolves.toEqual({
      deleted: 0,
    });
  });
});

describe.each(TEST_DIALECTS)('API rate limits on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database?.destroy());

  it('are 100 a minute and 1000 an hour', () => {
    expect(API_RATE_LIMITS).toEqual([
      { seconds: 60, max: 100 },
      { seconds: 3600, max: 1000 },
    ]);
  });

  it('the 101st request in a minute is refused with the seconds left in that minute', async () => {
    const key = `user:${crypto.randomUUID()}`;
    const now = new Date('2031-05-01T10:00:15.000Z');
    // One transaction keeps SQLite from syncing to disk 200 times; the counting is the same.
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 100; i++) await consumeRateLimit(trx, key, undefined, now);
    });
    const error = await rejection(consumeRateLimit(db, key, undefined, now));
    expect(error.status).toBe(429);
    expect(error.message).toBe('Too many requests');
    expect(error.retryAfter).toBe(45);
    // The next minute starts afresh; other keys are unaffected meanwhile.
    await expect(consumeRateLimit(db, `${key}-other`, undefined, now)).resolves.toBeUndefined();
    await expect(consumeRateLimit(db, key, undefined, new Date('2031-05-01T10:01:00.000Z'))).resolves.toBeUndefined();
  });

  it('counts requests made at the same time exactly, one statement each', async () => {
    const key = `user:${crypto.randomUUID()}`;
    const now = new Date('2031-05-01T12:00:15.000Z');
    await Promise.all(Array.from({ length: 40 }, () => consumeRateLimit(db, key, undefined, now)));
    const rows = await db
      .selectFrom('rateLimitCounters')
      .select(['key', 'count'])
      .where('key', 'like', `${key}:%`)
      .orderBy('key')
      .execute();
    expect(rows.map((r) => [r.key, Number(r.count)])).toEqual([
      [`${key}:3600`, 40],
      [`${key}:60`, 40],
    ]);
    // SQLite's upsert is compiled once and run with each request's values (PostgreSQL's is raw SQL).
    if (dialect === 'sqlite') expect(compiledShapes().get('rateLimit:2')).toBe(true);
  });

  it.runIf(dialect === 'postgres')('turns synchronous commit off for its own statement only', async () => {
    await db.connection().execute(async (connection) => {
      const setting = async () =>
        (await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(connection)).rows[0].s;
      // Test schemas' connections start with it off (test/database.ts); the app's start with it on.
      await sql`set synchronous_commit = on`.execute(connection);
      expect(await setting()).toBe('on');
      await consumeRateLimit(connection, `user:${crypto.randomUUID()}`);
      expect(await setting()).toBe('on');
    });
  });

  it('the 1001st request in an hour is refused until the hour is over', async () => {
    const key = `user:${crypto.randomUUID()}`;
    const start = Date.parse('2031-05-01T11:00:00.000Z');
    // 100 a minute for ten minutes: never over the burst limit, 1000 in the hour.
    await db.transaction().execute(async (trx) => {
      for (let minute = 0; minute < 10; minute++) {
        const now = new Date(start + minute * MINUTE);
        for (let i = 0; i < 100; i++) await consumeRateLimit(trx, key, undefined, now);
      }
    });
    const now = new Date(start + 10 * MINUTE);
    const error = await rejection(consumeRateLimit(db, key, undefined, now));
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(50 * 60);
    await expect(consumeRateLimit(db, key, undefined, new Date(start + 60 * MINUTE))).resolves.toBeUndefined();
  });
});

describe('in-memory API rate limiter (embedded SQLite mode)', () => {
  it('counts like the database: the 101st call in a minute waits for the next minute', () => {
    const limiter = createMemoryRateLimiter();
    const now = new Date('2031-05-01T10:00:15.000Z');
    for (let i = 0; i < 100; i++) limiter.consume('user:1', now);
    let error: unknown;
    try {
      limiter.consume('user:1', now);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ status: 429, retryAfter: 45 });
    expect(() => limiter.consume('user:2', now)).not.toThrow();
    expect(() => limiter.consume('user:1', new Date('2031-05-01T10:01:00.000Z'))).not.toThrow();
  });

  it('applies the configured windows (API_RATE_LIMIT_PER_MINUTE / _PER_HOUR)', () => {
    const limiter = createMemoryRateLimiter(rateLimitWindows({ perMinute: 3, perHour: 5 }));
    const start = Date.parse('2031-05-01T11:00:00.000Z');
    for (let i = 0; i < 3; i++) limiter.consume('k', new Date(start));
    expect(() => limiter.consume('k', new Date(start))).toThrow('Too many requests');
    // The refused call still counted, so the hour's 5 are used up after one more minute.
    limiter.consume('k', new Date(start + MINUTE));
    expect(() => limiter.consume('k', new Date(start + 2 * MINUTE))).toThrow('Too many requests');
  });
});
