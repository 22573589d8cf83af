// One limiter for screens and /api: every counted request of a signed-in user,
// an /api call or a screen's action, analysis or download, adds one to the same per-user
// counters (API_RATE_LIMIT_PER_MINUTE / _PER_HOUR). Plain page views are not counted: reading
// pages must not lock anyone out, and no page view scans the books.
import type { AppLoadContext } from '@remix-run/node';
import { consumeRateLimit, createMemoryRateLimiter, rateLimitWindows, type RateLimiter } from './throttle.server.ts';

const memoryLimiters = new WeakMap<object, RateLimiter>();
const COUNTED = 'rate-limit:counted';
const RETRY_AFTER = 'rate-limit:retry-after';

/**
 * Counts one request of this user (at most once per HTTP request, however many loaders and
 * actions ask); throws rateLimited (429, Retry-After) when over a window. In the database on
 * PostgreSQL, shared by every web process; in memory in embedded SQLite mode (one process).
 */
export async function countUserRequest(context: AppLoadContext, userId: number): Promise<void> {
  if (context.memo.has(COUNTED)) return;
  context.memo.set(COUNTED, true);
  const key = `user:${userId}`;
  const windows = rateLimitWindows(context.config.apiRateLimits);
  if (context.dialect === 'postgres') return consumeRateLimit(context.db, key, windows);
  let limiter = memoryLimiters.get(context.config);
  if (!limiter) {
    limiter = createMemoryRateLimiter(windows);
    memoryLimiters.set(context.config, limiter);
  }
  limiter.consume(key);
}

/**
 * A page answering 429 says when to retry: Remix passes only cookies from loaders and actions
 * to a page's headers, so the value is noted for this request and set by entry.server.tsx.
 */
export function noteRetryAfter(context: AppLoadContext, seconds: number | undefined): void {
  // A context without a memo (a unit test's) has no page to send.
  if (seconds) context.memo?.set(RETRY_AFTER, seconds);
}

export function notedRetryAfter(context: AppLoadContext): number | undefined {
  return context.memo?.get(RETRY_AFTER) as number | undefined;
}
