// vitest globalSetup: runs once in the main process before any test file. It refuses a CI run
// without PostgreSQL (test/ci.ts) and rebuilds a stale build/ before the suites that start a
// test server on it (test/server.ts), once for all workers. TEST_SKIP_BUILD=1 skips the build
// check (e.g. a pure unit test while the sources are mid-edit). On PostgreSQL it drops the test
// schemas before and after the run.
import path from 'node:path';
import { buildIfStale } from '../scripts/build-if-stale.ts';
import { missingPostgresInCi } from './ci.ts';
import { dropTestSchemas, installExtensions, TEST_RUN_VARIABLE } from './schemas.ts';

export default async function setup(): Promise<(() => Promise<void>) | void> {
  const missing = missingPostgresInCi();
  if (missing) throw new Error(missing);
  if (process.env.TEST_SKIP_BUILD !== '1') buildIfStale(path.resolve(import.meta.dirname, '..'));
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  process.env[TEST_RUN_VARIABLE] = String(process.pid);
  // Test schemas are dropped here, when no test file runs (see test/schemas.ts): first those an
  // aborted run left, then, at the end, this run's.
  await dropTestSchemas(url);
  await installExtensions(url);
  return async () => {
    await dropTestSchemas(url);
  };
}
