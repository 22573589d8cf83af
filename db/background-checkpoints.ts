// SQLite in WAL mode appends each commit to the write-ahead log and, once the log passes 1,000
// pages, the committing connection copies it into the database and flushes both files to disk.
// better-sqlite3 runs that on the caller's thread: in the web process, a slow flush on a busy
// disk holds every other request for as long. The web
// process therefore turns its automatic checkpoints off and lets a thread of its own with its own
// connection checkpoint every few seconds (docs/sqlite-writes.md). Commits keep their own flush
// (synchronous=FULL): what a request acknowledged is on disk either way. The first commit after
// a checkpoint restarts the log and flushes its header on the writer's thread; checkpointing
// every few seconds rather than every second keeps those restarts as rare as SQLite's own
// checkpoints made them under a steady stream of writes.
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** SQLite's own default, restored when the thread is gone. */
const AUTOMATIC_CHECKPOINT_PAGES = 1000;

export interface BackgroundCheckpoints {
  stop(): Promise<void>;
}

/** How often the thread checkpoints. */
export const CHECKPOINT_INTERVAL_MS = 5000;

export function startBackgroundCheckpoints(
  database: SQLite.Database,
  file: string,
  intervalMs = CHECKPOINT_INTERVAL_MS,
): BackgroundCheckpoints {
  const thread = new Worker(new URL('./checkpoint-thread.ts', import.meta.url), { workerData: { file, intervalMs } });
  let stopping = false;
  let fellBack = false;
  database.pragma('wal_autocheckpoint = 0');
  // A thread that failed to start or died: the connection checkpoints by itself again.
  const fallBack = (reason: string) => {
    if (stopping || fellBack) return;
    fellBack = true;
    console.error(`[db] background checkpoints stopped (${reason}); the connection checkpoints by itself again`);
    if (database.open) database.pragma(`wal_autocheckpoint = ${AUTOMATIC_CHECKPOINT_PAGES}`);
  };
  thread.on('error', (error) => fallBack(error.message));
  thread.on('exit', (code) => fallBack(`exit ${code}`));
  thread.unref();
  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      thread.postMessage('stop');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      await thread.terminate();
      if (database.open) database.pragma(`wal_autocheckpoint = ${AUTOMATIC_CHECKPOINT_PAGES}`);
    },
  };
}
