// The API run's pool of signed-in users. /api requests count against a per-user rate limit
// (app/platform/http/throttle.server.ts: 100 per minute, 1000 per hour), so one user under load
// gets 429s after the first 100 requests and the run would measure the limiter's refusal
// instead of the list. The bench therefore spreads the API load over many viewer accounts,
// each with its own session, exactly as sign-in would leave them: a user_sessions row holding
// the SHA-256 of a random token, and the token in the signed __session cookie. The limiter
// itself still runs (and is paid for) on every request.
import crypto from 'node:crypto';
import { createCookie } from '@remix-run/node';
import type { DatabaseHandle } from '../db/client.ts';
import { createMissingUserSettings } from '../db/user-settings-rows.ts';
import { hashToken } from '../app/platform/session/sessions.server.ts';
import { BENCH_SESSION_SECRET, BENCH_USER_DOMAIN, BENCH_USER_PREFIX } from './constants.ts';

const CHUNK = 200;

const sessionCookie = createCookie('__session', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/',
  secrets: [BENCH_SESSION_SECRET],
});

/** The `Cookie:` request header value for a session token (signed like the app signs it). */
export async function cookieFor(token: string): Promise<string> {
  return (await sessionCookie.serialize(token)).split(';')[0];
}

async function benchUserIds(handle: DatabaseHandle): Promise<number[]> {
  const rows = await handle.db
    .selectFrom('users')
    .select('id')
    .where('email', 'like', `${BENCH_USER_PREFIX}%${BENCH_USER_DOMAIN}`)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Makes `count` viewer accounts (bench-user-0001@bench.invalid …, no usable password) with one
 * fresh active session each, clears the API rate-limit counters, and returns the cookies.
 */
export async function prepareApiSessions(handle: DatabaseHandle, count: number): Promise<string[]> {
  const now = new Date();
  const iso = now.toISOString();
  const tokens: string[] = [];
  await handle.db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', 'like', `${BENCH_USER_PREFIX}%${BENCH_USER_DOMAIN}`)
      .execute();
    const have = new Set(existing.map((u) => u.email));
    const missing = [];
    for (let i = 1; i <= count; i++) {
      const name = `${BENCH_USER_PREFIX}${String(i).padStart(4, '0')}`;
      if (have.has(`${name}${BENCH_USER_DOMAIN}`)) continue;
      missing.push({
        username: name,
        email: `${name}${BENCH_USER_DOMAIN}`,
        passwordHash: 'bench-account-without-password',
        role: 'viewer' as const,
        fullName: `Bench User ${i}`,
        isActive: true,
        createdAt: iso,
        updatedAt: iso,
      });
    }
    for (let i = 0; i < missing.length; i += CHUNK)
      await trx
        .insertInto('users')
        .values(missing.slice(i, i + CHUNK))
        .execute();
    // Every user has a settings row, as one created through the app has.
    await createMissingUserSettings(trx);
    const users = (
      await trx
        .selectFrom('users')
        .select(['id', 'email'])
        .where('email', 'like', `${BENCH_USER_PREFIX}%${BENCH_USER_DOMAIN}`)
        .orderBy('id')
        .execute()
    ).filter((u) => Number(u.email.slice(BENCH_USER_PREFIX.length, -BENCH_USER_DOMAIN.length)) <= count);
    const ids = users.map((u) => u.id);
    for (let i = 0; i < ids.length; i += CHUNK) {
      await trx
        .deleteFrom('userSessions')
        .where('userId', 'in', ids.slice(i, i + CHUNK))
        .execute();
    }
    const sessions = users.map((u) => {
      const token = crypto.randomBytes(32).toString('base64url');
      tokens.push(token);
      return {
        sessionId: crypto.randomUUID(),
        tokenHash: hashToken(token),
        userId: u.id,
        ipAddress: '127.0.0.1',
        userAgent: 'autocannon (bench)',
        loginAt: iso,
        lastSeenAt: iso,
        expiresAt: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
        rememberMe: true,
        isActive: true,
      };
    });
    for (let i = 0; i < sessions.length; i += CHUNK)
      await trx
        .insertInto('userSessions')
        .values(sessions.slice(i, i + CHUNK))
        .execute();
    await trx.deleteFrom('rateLimitCounters').where('key', 'like', 'user:%').execute();
  });
  return Promise.all(tokens.map(cookieFor));
}

/**
 * Before each API run: the pool's sessions were just "seen" (so the run does not pay the
 * once-a-minute last-seen update of every pool session, which one real user would pay once)
 * and the rate-limit windows start empty.
 */
export async function refreshApiSessions(handle: DatabaseHandle): Promise<void> {
  const ids = await benchUserIds(handle);
  const iso = new Date().toISOString();
  await handle.db.transaction().execute(async (trx) => {
    for (let i = 0; i < ids.length; i += CHUNK) {
      await trx
        .updateTable('userSessions')
        .set({ lastSeenAt: iso })
        .where('userId', 'in', ids.slice(i, i + CHUNK))
        .where('isActive', '=', true)
        .execute();
    }
    await trx.deleteFrom('rateLimitCounters').where('key', 'like', 'user:%').execute();
  });
}
