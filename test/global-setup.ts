// vitest globalSetup: runs once in the main process before any test file. It refuses a CI run
// without PostgreSQL (test/ci.ts) and rebuilds a stale build/ before the suites that start a
// test server on it (test/server.ts), once for all workers, and prepares the SQLite template of
// the test databases (test/database.ts). TEST_SKIP_BUILD=1 skips the build
// check (e.g. a pure unit test while the sources are mid-edit). On PostgreSQL it drops the test
// schemas before and after the run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../db/client.ts';
import { buildIfStale } from '../scripts/build-if-stale.ts';
import { missingPostgresInCi } from './ci.ts';
import { dropTestSchemas, installExtensions, TEST_RUN_VARIABLE } from './schemas.ts';
import { prepareTestDatabase, SQLITE_TEMPLATE_VARIABLE } from './database.ts';

export default async function setup(): Promise<(() => Promise<void>) | void> {
  const missing = missingPostgresInCi();
  if (missing) throw new Error(missing);
  if (process.env.TEST_SKIP_BUILD !== '1') buildIfStale(path.resolve(import.meta.dirname, '..'));
  // The prepared SQLite database every test file's prepared databases start as a copy of
  // (test/database.ts): the migrations run once per run, not once per test server. Closing the
  // handle checkpoints the log into the file, so the file alone is the whole database.
  const templateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-template-'));
  const template = createDatabase({ dataDir: templateDir });
  await prepareTestDatabase(template);
  await template.close();
  process.env[SQLITE_TEMPLATE_VARIABLE] = path.join(templateDir, 'finhub.db');
  const removeTemplate = async () => fs.rmSync(templateDir, { recursive: true, force: true });
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return removeTemplate;
  process.env[TEST_RUN_VARIABLE] = String(process.pid);
  // Test schemas are dropped here, when no test file runs (see test/schemas.ts): first those an
  // aborted run left, then, at the end, this run's.
  await dropTestSchemas(url);
  await installExtensions(url);
  return async () => {
    await removeTemplate();
    await dropTestSchemas(url);
  };
}
