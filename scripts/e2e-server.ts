// The server the Playwright suite runs against (playwright.config.ts starts it as its
// webServer): the built app over a fresh SQLite database in E2E_DATA_DIR, reference data
// only (SEED_DEMO=0), a known owner account and fixed test secrets. It rebuilds a stale build
// first (scripts/build-if-stale.ts, the same check as `npm test`). No embedded job engine (it
// costs a PGlite start and a polling loop per run and no spec needs it): E2E_JOBS=1 turns it on.
// Run under Node 24 (type stripping): `node scripts/e2e-server.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from './build-if-stale.ts';
import {
  E2E_ENCRYPTION_KEY,
  E2E_PORT,
  E2E_SESSION_SECRET,
  OWNER_EMAIL,
  OWNER_PASSWORD,
} from '../e2e/support/constants.ts';

// Before the app (and React) load: the production builds, as in real use.
process.env.NODE_ENV = 'production';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
try {
  buildIfStale(root);
} catch (error) {
  console.error(`[e2e] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const dataDir = process.env.E2E_DATA_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-e2e-'));
// Every run starts from an empty database, even when the directory is reused.
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
console.log(`[e2e] data directory: ${dataDir}`);
// The data is throw-away: remove it when the server stops (Playwright sends SIGTERM).
process.on('exit', (code) => {
  console.error(`[e2e] server stopped (exit code ${code}); removed ${dataDir}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const { startServer } = await import('../server.ts');
const { loadConfig } = await import('../app/platform/config.server.ts');

const config = loadConfig({
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: process.env.PORT ?? String(E2E_PORT),
  DATA_DIR: dataDir,
  SEED_DEMO: '0',
  EMBEDDED_JOBS: process.env.E2E_JOBS === '1' ? '1' : '0',
  OWNER_EMAIL,
  OWNER_PASSWORD,
  PSEUDO_LOCALE: '1',
  SESSION_SECRET: E2E_SESSION_SECRET,
  ENCRYPTION_KEY: E2E_ENCRYPTION_KEY,
});

try {
  await startServer(config);
} catch (error) {
  console.error(error);
  process.exit(1);
}
