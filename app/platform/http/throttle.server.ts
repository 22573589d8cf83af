// Sign-in throttling and API rate limits. Counters live in the database so every web
// process sees the same numbers (docs/architecture.md), except API counters in embedded SQLite mode,
// which has a single web process.
import { sql } from 'kysely';
import { runCompiled } from '../../../db/compiled-cache.ts';
import { dialectOf } from '../../../db/dialect.ts';
import { requirePermission, type Db, type ServiceContext } from '../context.ts';
import { DomainError } from '../errors.ts';

export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Hard limit (429): failures for one account from one address in the window. */
export const LOGIN_FAILURES_PER_ACCOUNT_AND_IP = 5;
/** Hard limit (429): failures from one address, whatever the accounts, in the window. */
export const LOGIN_FAILURES_PER_IP = 20;
/**
 * Failures for one account from any addresses only slow its sign-ins down, so that
 * nobody can lock another person out by failing on purpose: no delay for the first
 * LOGIN_SLOWDOWN_AFTER, then LOGIN_SLOWDOWN_BASE_MS doubling with each failure, capped.
 */
export const LOGIN_SLOWDOWN_AFTER = 5;
export const LOGIN_SLOWDOWN_BASE_MS = 250;
export const LOGIN_SLOWDOWN_MAX_MS = 4_000;

/** The wait before answering a sign-in for an account with this many recent failures. */
export function loginSlowdownMs(accountFailures: number): number {
  if (accountFailures < LOGIN_SLOWDOWN_AFTER) return 0;
  return Math.min(LOGIN_SLOWDOWN_MAX_MS, LOGIN_SLOWDOWN_BASE_MS * 2 ** (accountFailures - LOGIN_SLOWDOWN_AFTER));
}

/** Seconds until the given failures (newest first) fall back under the limit. */
function retryAfterSeconds(failuresNewestFirst: { createdAt: string }[], limit: number, now: Date): number | null {
  if (failuresNewestFirst.length < limit) return null;
  const gate = Date.parse(failuresNewestFirst[limit - 1].createdAt) + LOGIN_WINDOW_MS;
  return Math.max(1, Math.ceil((gate - now.getTime()) / 1000));
}

/** The newest failed attempts (at most `limit`) for an account and/or an address since a time. */
function recentFailures(db: Db, by: { email?: string; ipAddress?: string }, since: string, limit: number) {
  let q = db
    .selectFrom('loginAttempts')
    .select('createdAt')
    .where('succeeded', '=', false)
    .where('createdAt', '>', since);
  if (by.email !== undefined) q = q.where('email', '=', by.email);
  if (by.ipAddress !== undefined) q = q.where('ipAddress', '=', by.ipAddress);
  return q.orderBy('createdAt', 'desc').limit(limit).execute();
}

/** The start of the account's counting window: a successful sign-in clears its count. */
async function accountWindowStart(db: Db, email: string, now: Date): Promise<string> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
  const lastSuccess = await db
    .selectFrom('loginAttempts')
    .select('createdAt')
    .where('email', '=', email)
    .where('succeeded', '=', true)
    .where('createdAt', '>=', since)
    .orderBy('createdAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  return lastSuccess && lastSuccess.createdAt > since ? lastSuccess.createdAt : since;
}

/**
 * Throws rateLimited when this account has failed too often from this address, or this address
 * too often for any accounts (docs/security.md). Failures of the account from other addresses never
 * block: they only slow answers down (loginDelayMs).
 */
export async function assertLoginAllowed(db: Db, email: string, ip: string, now = new Date()): Promise<void> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
  const accountSince = await accountWindowStart(db, email, now);
  const pairFailures = await recentFailures(
    db,
    { email, ipAddress: ip },
    accountSince,
    LOGIN_FAILURES_PER_ACCOUNT_AND_IP,
  );
  const ipFailures = await recentFailures(db, { ipAddress: ip }, since, LOGIN_FAILURES_PER_IP);
  const wait = Math.max(
    retryAfterSeconds(pairFailures, LOGIN_FAILURES_PER_ACCOUNT_AND_IP, now) ?? 0,
    retryAfterSeconds(ipFailures, LOGIN_FAILURES_PER_IP, now) ?? 0,
  );
  if (wait > 0) {
    const minutes = Math.ceil(wait / 60);
    throw new DomainError(
      'rateLimited',
      `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { retryAfter: wait },
    );
  }
}

/** How long to wait before answering a sign-in for this account (its failures from anywhere). */
export async function loginDelayMs(db: Db, email: string, now = new Date()): Promise<number> {
  const accountSince = await accountWindowStart(db, email, now);
  const needed = LOGIN_SLOWDOWN_AFTER + Math.ceil(Math.log2(LOGIN_SLOWDOWN_MAX_MS / LOGIN_SLOWDOWN_BASE_MS)) + 1;
  const failures = await recentFailures(db, { email }, accountSince, needed);
  return loginSlowdownMs(failures.length);
}

/** Waits; tests pass their own so they do not sleep. */
export type Delay = (ms: number) => Promise<void>;
export const sleep: Delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function recordLoginAttempt(
  db: Db,
  email: string,
  ip: string,
  succeeded: boolean,
  now = new Date(),
): Promise<void> {
  await db
    .insertInto('loginAttempts')
    .values({ email, ipAddress: ip, succeeded, createdAt: now.toISOString() })
    .execute();
}

/**
 * Wrong current passwords (profile, change-password, screen and API) are counted per user in
 * the same table, under a key that is not an e-mail address and an address that is not an IP,
 * so they never mix with sign-in counts: 5 in 15 minutes answer 429 (Retry-After).
 */
export const CURRENT_PASSWORD_FAILURES = 5;
export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again later.';
const currentPasswordKey = (userId: number) => `#current-password:${userId}`;
const NOT_AN_ADDRESS = '-';

export async function assertCurrentPasswordAllowed(db: Db, userId: number, now = new Date()): Promise<void> {
  const key = currentPasswordKey(userId);
  const failures = await recentFailures(
    db,
    { email: key },
    await accountWindowStart(db, key, now),
    CURRENT_PASSWORD_FAILURES,
  );
  const wait = retryAfterSeconds(failures, CURRENT_PASSWORD_FAILURES, now);
  if (wait) throw new DomainError('rateLimited', TOO_MANY_ATTEMPTS, { retryAfter: wait });
}

/** A success clears the user's count, as a successful sign-in clears an account's. */
export async function recordCurrentPasswordAttempt(
  db: Db,
  userId: number,
  succeeded: boolean,
  now = new Date(),
): Promise<void> {
  await recordLoginAttempt(db, currentPasswordKey(userId), NOT_AN_ADDRESS, succeeded, now);
}

/**
 * Deletes login attempts older than `olderThanDays` (the purge-login-attempts job, daily): they
 * serve no throttling window any more. System or administrators.
 */
export async function purgeLoginAttempts(
  ctx: ServiceContext,
  options: { olderThanDays: number; now?: Date },
): Promise<{ deleted: number }> {
  requirePermission(ctx, 'admin');
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.olderThanDays * 86_400_000).toISOString();
  const result = await ctx.db.deleteFrom('loginAttempts').where('createdAt', '<', cutoff).executeTakeFirst();
  return { deleted: Number(result.numDeletedRows) };
}

export interface RateLimitWindow {
  seconds: number;
  max: number;
}

/** 1000 requests per hour per user, burst 100 per minute (docs/api.md). */
export const API_RATE_LIMITS: RateLimitWindow[] = [
  { seconds: 60, max: 100 },
  { seconds: 3600, max: 1000 },
];

export function rateLimitWindows(limits: { perMinute: number; perHour: number }): RateLimitWindow[] {
  return [
    { seconds: 60, max: limits.perMinute },
    { seconds: 3600, max: limits.perHour },
  ];
}

function windowStartOf(nowSeconds: number, window: RateLimitWindow): number {
  return nowSeconds - (nowSeconds % window.seconds);
}

function rejectIfOver(retryAfter: number): void {
  if (retryAfter > 0) throw new DomainError('rateLimited', 'Too many requests', { retryAfter });
}

/**
 * Counts one request against each window in the database, shared by every web process
 * (PostgreSQL deployments run several); throws rateLimited (with Retry-After) when over.
 * The commit does not wait for the disk: losing a counter in a crash is harmless.
 */
export async function consumeRateLimit(
  db: Db,
  key: string,
  windows = API_RATE_LIMITS,
  now = new Date(),
): Promise<void> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const counters = windows.map((window) => ({
    window,
    key: `${key}:${window.seconds}`,
    windowStart: windowStartOf(nowSeconds, window),
  }));
  const counts = new Map((await countOnce(db, counters)).map((row) => [row.key, Number(row.count)]));
  let retryAfter = 0;
  for (const { window, key: counterKey, windowStart } of counters) {
    if ((counts.get(counterKey) ?? 0) > window.max)
      retryAfter = Math.max(retryAfter, windowStart + window.seconds - nowSeconds);
  }
  // Old windows are swept now and then rather than on every request.
  if (Math.random() < 0.01)
    await db
      .deleteFrom('rateLimitCounters')
      .where('windowStart', '<', nowSeconds - 7200)
      .execute();
  rejectIfOver(retryAfter);
}

/**
 * Adds one to each window's counter in one statement (atomic by itself). On PostgreSQL, outside
 * a caller's transaction, the statement also turns synchronous commit off for its own implicit
 * transaction: a lost count after a crash does not matter, a WAL flush per API request does,
 * and one round trip replaces BEGIN, SET LOCAL, an upsert per window and COMMIT.
 */
async function countOnce(
  db: Db,
  counters: { key: string; windowStart: number }[],
): Promise<{ key: string; count: number | string }[]> {
  if (dialectOf(db) === 'postgres' && !db.isTransaction) {
    const values = sql.join(counters.map((c) => sql`(${c.key}::text, ${c.windowStart}::bigint)`));
    const { rows } = await sql<{ key: string; count: number | string }>`
      insert into rate_limit_counters (key, window_start, count)
      select v.key, v.window_start, 1 from (values ${values}) as v (key, window_start)
      where set_config('synchronous_commit', 'off', true) is not null
      on conflict (key, window_start) do update set count = rate_limit_counters.count + 1
      returning key, count`.execute(db);
    return rows;
  }
  // Every API request on SQLite runs this: compiled once per number of windows (db/compiled-cache.ts).
  const values = counters.flatMap((c) => [c.key, c.windowStart]);
  return runCompiled(db, `rateLimit:${counters.length}`, values, (v) =>
    db
      .insertInto('rateLimitCounters')
      .values(counters.map((_, i) => ({ key: v[2 * i] as string, windowStart: v[2 * i + 1] as number, count: 1 })))
      .onConflict((oc) => oc.columns(['key', 'windowStart']).doUpdateSet({ count: sql`rate_limit_counters.count + 1` }))
      .returning(['key', 'count']),
  );
}

export interface RateLimiter {
  consume(key: string, now?: Date): void;
}

/**
 * The same counting in process memory, for the embedded SQLite mode where one web process
 * serves everything: a database write (and fsync) per API request would cap throughput.
 */
export function createMemoryRateLimiter(windows = API_RATE_LIMITS): RateLimiter {
  const counters = new Map<string, { windowStart: number; count: number }>();
  let lastSweep = 0;
  return {
    consume(key, now = new Date()) {
      const nowSeconds = Math.floor(now.getTime() / 1000);
      let retryAfter = 0;
      for (const window of windows) {
        const windowStart = windowStartOf(nowSeconds, window);
        const counterKey = `${key}:${window.seconds}`;
        const counter = counters.get(counterKey);
        const count = counter && counter.windowStart === windowStart ? counter.count + 1 : 1;
        counters.set(counterKey, { windowStart, count });
        if (count > window.max) retryAfter = Math.max(retryAfter, windowStart + window.seconds - nowSeconds);
      }
      if (nowSeconds - lastSweep > 600) {
        lastSweep = nowSeconds;
        for (const [k, c] of counters) if (c.windowStart < nowSeconds - 7200) counters.delete(k);
      }
      rejectIfOver(retryAfter);
    },
  };
}
