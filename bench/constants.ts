// Fixed values shared by the bench scripts (plain constants: loaded under type stripping).
import os from 'node:os';
import path from 'node:path';

/** Where the bench keeps its database unless told otherwise (re-used between runs). */
export const DEFAULT_DATA_DIR = path.join(os.tmpdir(), 'finhub-bench');
export const DEFAULT_ROWS = 1_000_000;

/** Node flags the app's server runs with, as `npm start` and `npm run serve` start it (scripts/bootstrap.mjs). */
export const SERVER_NODE_FLAGS = ['--liftoff-only'];

/** The owner the bench signs in as (created by prepareDatabase at the first start). */
export const BENCH_OWNER_EMAIL = 'owner@example.com';
export const BENCH_OWNER_PASSWORD = 'Bench-Owner-Password-1';

/** Fixed secrets, so the bench can sign session cookies for its pool of API users. */
export const BENCH_SESSION_SECRET = 'bench-session-secret-0123456789abcdef0123456789';
export const BENCH_ENCRYPTION_KEY = 'be7c'.repeat(16);

/** Users of the API run's session pool: bench-user-0001@bench.invalid … */
export const BENCH_USER_PREFIX = 'bench-user-';
export const BENCH_USER_DOMAIN = '@bench.invalid';

export function argValue(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

export function numberArg(argv: string[], name: string, fallback: number): number {
  const raw = argValue(argv, name);
  if (raw === undefined) return fallback;
  const value = Number(raw.replaceAll('_', ''));
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number (got ${raw})`);
  return value;
}

/** The server's environment in every bench process: production builds, fixed secrets and owner. */
export function benchEnv(): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: process.env.PORT ?? '3300',
    DATA_DIR: process.env.DATA_DIR ?? DEFAULT_DATA_DIR,
    DATABASE_URL: process.env.DATABASE_URL,
    SEED_DEMO: '0',
    OWNER_EMAIL: BENCH_OWNER_EMAIL,
    OWNER_PASSWORD: BENCH_OWNER_PASSWORD,
    SESSION_SECRET: BENCH_SESSION_SECRET,
    ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
    // bench/ab.ts runs two servers on one data directory: one job engine per directory.
    EMBEDDED_JOBS: process.env.EMBEDDED_JOBS,
    // bench/ab.ts sends one user's /api requests by the thousand (counted as ever, never refused).
    API_RATE_LIMIT_PER_MINUTE: process.env.API_RATE_LIMIT_PER_MINUTE,
    API_RATE_LIMIT_PER_HOUR: process.env.API_RATE_LIMIT_PER_HOUR,
    // bench/screens.ts on PostgreSQL: production there needs the push keys from the environment.
    VAPID_PUBLIC_KEY: process.env.VAPID_PUBLIC_KEY,
    VAPID_PRIVATE_KEY: process.env.VAPID_PRIVATE_KEY,
  };
}

/** One progress line of a bulk load. */
export function loadProgress(done: number, started: number): string {
  const seconds = (performance.now() - started) / 1000;
  return `  ${done.toLocaleString('en-US')} rows, ${Math.round(done / seconds).toLocaleString('en-US')} rows/s`;
}
