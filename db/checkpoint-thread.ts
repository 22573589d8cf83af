// The background checkpointer's thread (db/background-checkpoints.ts): its own connection to the
// SQLite file copies the write-ahead log into the database every interval, so the disk flushes a
// checkpoint needs happen here and not on the web process's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const database = new SQLite(file, { fileMustExist: true });
database.pragma('busy_timeout = 5000');
// As the app's connection: the log is flushed before it is copied, the database after.
database.pragma('synchronous = FULL');

const timer = setInterval(() => {
  // PASSIVE: copies what no reader still needs, never waits for readers or blocks writers.
  database.pragma('wal_checkpoint(PASSIVE)');
}, intervalMs);

parentPort!.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  database.close();
  parentPort!.close();
});
