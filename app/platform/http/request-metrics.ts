// The app's own measure of its HTTP traffic (System Monitoring's API figures): per minute, how
// many requests were answered, how many with a 5xx, and their total answer time. Kept in this
// process's memory for the last hour (each web process reports its own traffic); server.ts
// records every request except static files and probes, and hands the reader to loaders.
import { ASSETS_URL } from './assets.ts';

export const KEPT_MINUTES = 60;

interface Bucket {
  minute: number;
  requests: number;
  errors: number;
  totalMs: number;
}

export interface RequestMetricsSummary {
  windowMinutes: number;
  requests: number;
  /** Per minute over the window (minutes the process has been up, at most the window). */
  requestsPerMinute: number;
  /** Percent of requests answered with a 5xx, one decimal. */
  errorRate: number;
  /** Mean answer time in ms, one decimal; null without requests. */
  responseTime: number | null;
}

export class RequestMetrics {
  readonly #buckets: Bucket[] = [];
  readonly #startedAt: number;

  constructor(now = Date.now()) {
    this.#startedAt = now;
  }

  record(status: number, ms: number, now = Date.now()): void {
    const minute = Math.floor(now / 60_000);
    let bucket = this.#buckets[this.#buckets.length - 1];
    if (!bucket || bucket.minute !== minute) {
      bucket = { minute, requests: 0, errors: 0, totalMs: 0 };
      this.#buckets.push(bucket);
      while (this.#buckets.length && this.#buckets[0].minute <= minute - KEPT_MINUTES) this.#buckets.shift();
    }
    bucket.requests += 1;
    if (status >= 500) bucket.errors += 1;
    bucket.totalMs += ms;
  }

  /** The last `windowMinutes` minutes, this one included. */
  summary(windowMinutes = 15, now = Date.now()): RequestMetricsSummary {
    const window = Math.min(Math.max(1, windowMinutes), KEPT_MINUTES);
    const from = Math.floor(now / 60_000) - window + 1;
    const inWindow = this.#buckets.filter((b) => b.minute >= from);
    const requests = inWindow.reduce((n, b) => n + b.requests, 0);
    const errors = inWindow.reduce((n, b) => n + b.errors, 0);
    const totalMs = inWindow.reduce((n, b) => n + b.totalMs, 0);
    const upMinutes = Math.max(1, Math.min(window, (now - this.#startedAt) / 60_000));
    return {
      windowMinutes: window,
      requests,
      requestsPerMinute: Math.round((requests / upMinutes) * 10) / 10,
      errorRate: requests ? Math.round((errors / requests) * 1000) / 10 : 0,
      responseTime: requests ? Math.round((totalMs / requests) * 10) / 10 : null,
    };
  }
}

/** Static files and probes are not the app's traffic. */
export function isMeasured(path: string): boolean {
  return !(
    path.startsWith(ASSETS_URL) ||
    path === '/healthz' ||
    path === '/readyz' ||
    path === '/favicon.ico' ||
    path === '/sw.js'
  );
}
