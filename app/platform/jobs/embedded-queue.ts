// The embedded queue (PGlite under DATA_DIR/queue) can be opened by one process only: two
// processes on the same PGlite files would corrupt them. The process that opens it writes its pid
// to DATA_DIR/queue.pid; the web process also writes DATA_DIR/queue-status.json every so often,
// so `finhub jobs status` can report while the web server holds the queue.
import fs from 'node:fs';
import path from 'node:path';
import type { JobsStatus } from './status.ts';
import { isProcessAlive } from '../process.server.ts';

export const queueDirOf = (dataDir: string) => path.join(dataDir, 'queue');
const pidFile = (dataDir: string) => path.join(dataDir, 'queue.pid');
const statusFile = (dataDir: string) => path.join(dataDir, 'queue-status.json');

/** The pid of another live process holding the embedded queue, or null. */
export function queueOwner(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile(dataDir), 'utf8').trim());
  } catch {
    return null;
  }
  return Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && isProcessAlive(pid) ? pid : null;
}

export class QueueBusyError extends Error {
  override name = 'QueueBusyError';
  readonly pid: number;
  constructor(pid: number) {
    super(`The embedded job queue is in use by process ${pid} (the web server)`);
    this.pid = pid;
  }
}

const claimedHere = new Set<string>();

/** Takes the queue for this process; throws QueueBusyError when a live process (this one included) holds it. */
export function claimQueue(dataDir: string): () => void {
  const key = path.resolve(dataDir);
  if (claimedHere.has(key)) throw new QueueBusyError(process.pid);
  const owner = queueOwner(dataDir);
  if (owner) throw new QueueBusyError(owner);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = pidFile(dataDir);
  // Exclusive create, so two processes starting at once cannot both win. A stale file (its
  // process is gone) was checked above and is replaced.
  try {
    fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
  }
  claimedHere.add(key);
  return () => {
    claimedHere.delete(key);
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
}

export interface StatusSnapshot extends JobsStatus {
  writtenAt: string;
  pid: number;
}

export function writeStatusSnapshot(dataDir: string, status: JobsStatus): void {
  const file = statusFile(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  const snapshot: StatusSnapshot = { ...status, writtenAt: new Date().toISOString(), pid: process.pid };
  fs.writeFileSync(temp, JSON.stringify(snapshot));
  fs.renameSync(temp, file);
}

export function readStatusSnapshot(dataDir: string): StatusSnapshot | null {
  try {
    return JSON.parse(fs.readFileSync(statusFile(dataDir), 'utf8')) as StatusSnapshot;
  } catch {
    return null;
  }
}
