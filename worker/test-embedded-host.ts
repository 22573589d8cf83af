// Test fixture: a process hosting the embedded engine (SQLite app data + pg-boss on PGlite
// under DATA_DIR/queue), as the web process does. With SEND_SLOW=<file> it sends one slow
// job itself (PGlite belongs to this process: nobody else can send to it).
import { loadConfig } from '../app/platform/config.server.ts';
import { createDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createJobEngine } from '../app/platform/jobs/engine.ts';
import { appJobs } from '../app/features/jobs.ts';
import { createRuntime } from '../app/platform/runtime.ts';
import { withTestJobs } from './test-jobs.ts';

const config = loadConfig();
const handle = createDatabase({ dataDir: config.dataDir });
await migrateToLatest(handle.db);
const runtime = createRuntime();
const engine = createJobEngine(config, handle.db, 'embedded', withTestJobs(appJobs(config)), {
  runtime,
  schedules: false,
  statusSnapshotSeconds: 0,
  pollingIntervalSeconds: 0.5,
  superviseIntervalSeconds: 1,
  log: () => {},
});
runtime.jobs.host(engine);
await engine.start();
if (process.env.SEND_SLOW) await engine.send('test-slow', { file: process.env.SEND_SLOW, ms: 60_000 });
console.log('[host] ready');
process.on('SIGTERM', async () => {
  await engine.stop({ graceful: true, timeout: 10_000 });
  await handle.close();
  process.exit(0);
});
