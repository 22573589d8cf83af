// `npm run worker`: on PostgreSQL a worker process running the job handlers (several may run
// at once); SIGTERM/SIGINT stop it gracefully (in-flight jobs finish, no new one starts).
// On SQLite the jobs run inside the web process, so this explains that and exits 0.
import { pathToFileURL } from 'node:url';
import { loadConfig, ConfigError, type AppConfig } from '../app/platform/config.server.ts';
import { createDatabase, isPostgresUrl } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { JobSet } from '../app/platform/jobs/handler.ts';
import { createJobEngine } from '../app/platform/jobs/engine.ts';
import { createRuntime } from '../app/platform/runtime.ts';
import { catalogTranslator } from '../app/features/shell/catalog-files.server.ts';
import { appJobs } from '../app/features/jobs.ts';
import {
  ensurePrivateDirectory,
  usePrivateFileModes,
  warnAboutWidePermissions,
} from '../app/platform/private-files.server.ts';

/** Runs the worker with the jobs `assemble` gives (the app's; tests add their own). null: it keeps running. */
async function main(assemble: (config: AppConfig) => JobSet): Promise<number | null> {
  usePrivateFileModes();
  const config = loadConfig();
  if (!isPostgresUrl(config.databaseUrl)) {
    console.log(
      'No DATABASE_URL: the app uses the embedded SQLite database, and its jobs run inside the web\n' +
        'process (pg-boss on PGlite under DATA_DIR/queue). There is nothing for a separate worker to do.\n' +
        'Set DATABASE_URL=postgres://… to run separate workers.',
    );
    return 0;
  }
  // Backups are written to BACKUP_DIR by the workers. DATA_DIR exists from the start, private
  // (its disk is what the health snapshots measure), not only once a job first writes there.
  ensurePrivateDirectory(config.dataDir);
  warnAboutWidePermissions([config.dataDir, config.backupDir]);
  const handle = createDatabase({ url: config.databaseUrl, poolSize: 5 });
  await migrateToLatest(handle.db);

  // The worker's runtime: handlers enqueue follow-up jobs on the engine it hosts.
  const runtime = createRuntime(undefined, { translator: catalogTranslator() });
  const engine = createJobEngine(config, handle.db, 'worker', assemble(config), { runtime });
  runtime.jobs.host(engine);
  await engine.start();
  console.log(`[worker] ready (pid ${process.pid})`);

  const stopTimeout = config.jobs.worker.stopTimeoutSeconds * 1000;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[worker] ${signal}: no new jobs; waiting up to ${stopTimeout / 1000}s for running ones`);
    try {
      await engine.stop({ graceful: true, timeout: stopTimeout });
      await handle.close();
      console.log('[worker] stopped');
      process.exit(0);
    } catch (error) {
      console.error('[worker] stop failed:', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  return null;
}

/** The worker process: exits with main's status, or 1 (with the message) when it fails. */
export function runWorker(assemble: (config: AppConfig) => JobSet = appJobs): void {
  main(assemble).then(
    (code) => {
      if (code !== null) process.exit(code);
    },
    (error) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) runWorker();
