// The web process's SQLite checkpoints (db/background-checkpoints.ts): its own connection never
// copies the write-ahead log into the database (a flush on the event loop); a thread does, so the
// log restarts and stays small; a thread that cannot run hands the job back to the connection.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBackgroundCheckpoints } from './background-checkpoints.ts';

const PAGE = 4096;
const BATCH_PAGES = 400;
const BATCHES = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('background checkpoints', () => {
  let dir: string;
  let file: string;
  let database: SQLite.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-checkpoints-'));
    file = path.join(dir, 'finhub.db');
    database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.pragma(`page_size = ${PAGE}`);
    database.exec('create table rows (id integer primary key, payload blob)');
  });
  afterEach(() => {
    database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const autocheckpoint = () => database.pragma('wal_autocheckpoint', { simple: true });
  const logPages = () => fs.statSync(`${file}-wal`).size / PAGE;
  /** Batches of about BATCH_PAGES pages each (one row per page), with a pause between them. */
  async function write(): Promise<void> {
    const insert = database.prepare('insert into rows (payload) values (randomblob(3500))');
    const batch = database.transaction(() => {
      for (let i = 0; i < BATCH_PAGES; i += 1) insert.run();
    });
    for (let i = 0; i < BATCHES; i += 1) {
      batch();
      await sleep(150);
    }
  }

  it('the connection checkpoints nothing itself; the thread copies the log, so it restarts and stays small', async () => {
    const checkpoints = startBackgroundCheckpoints(database, file, 50);
    expect(autocheckpoint()).toBe(0);
    await write();
    // The log restarted: without the thread it holds every batch (the test below). On a loaded
    // host the thread may fall a few batches behind before it catches up, so the bound is half.
    expect(logPages()).toBeLessThan((BATCHES / 2) * BATCH_PAGES);
    expect(database.prepare('select count(*) as n from rows').get()).toEqual({ n: BATCH_PAGES * BATCHES });
    await checkpoints.stop();
    expect(autocheckpoint()).toBe(1000);
  });

  it('without the thread and without automatic checkpoints, the log keeps every page written', async () => {
    database.pragma('wal_autocheckpoint = 0');
    await write();
    expect(logPages()).toBeGreaterThan(BATCH_PAGES * BATCHES);
  });

  it('a thread that cannot open the database hands checkpoints back to the connection', async () => {
    const checkpoints = startBackgroundCheckpoints(database, path.join(dir, 'missing', 'finhub.db'), 50);
    for (let i = 0; i < 100 && autocheckpoint() === 0; i += 1) await sleep(50);
    expect(autocheckpoint()).toBe(1000);
    await checkpoints.stop();
  });
});
