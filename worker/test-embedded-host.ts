// Test fixture: a process hosting the embedded engine (SQLite app data + pg-boss on PGlite
// under DATA_DIR/queue), as the web process does. With SEND_SLOW=<file> it sends one slow
// job itself (PGlite belongs to this process: nobody else can send to it).
import path from 'node:path';
import { createDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { JobEngine } from './engine.ts';
import { registry } from './registry.ts';
import testJobs from './test-jobs.ts';

const dataDir = process.env.DATA_DIR!;
const handle = createDatabase({ dataDir });
await migrateToLatest(handle.db);
const engine = new JobEngine({
  role: 'embedded',
  db: handle.db,
  dataDir,
  queueDir: path.join(dataDir, 'queue'),
  jobs: [...registry, ...testJobs],
  schedules: false,
  pollingIntervalSeconds: 0.5,
  superviseIntervalSeconds: 1,
  log: () => {},
});
await engine.start();
if (process.env.SEND_SLOW) await engine.send('test-slow', { file: process.env.SEND_SLOW, ms: 60_000 });
console.log('[host] ready');
process.on('SIGTERM', async () => {
  await engine.stop({ graceful: true, timeout: 10_000 });
  await handle.close();
  process.exit(0);
});
