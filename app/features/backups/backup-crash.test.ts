// Never half done (docs/decisions.md): a restoring process killed at any moment leaves the
// database fully old or fully new. Per dialect: demo data plus some thousands of generated rows;
// backup B of that ("new"), then rows deleted, changed and added across several tables ("old").
// A child process (test/support/restore-child.ts) restores B with overwrite and is SIGKILLed
// at a random point: one uninterrupted run first gives the duration D, then run i is killed
// somewhere in the i-th of RUNS slices of [50 ms, D] (and up to three more runs aim at the
// restore transaction's row writing when no kill landed there). After each kill the database
// must pass its integrity checks (SQLite: integrity_check and foreign_key_check; PostgreSQL,
// once the killed child's backends are gone: no row refers to a missing one) with row_counts
// agreeing with the tables, and the data tables must all equal the old set or all the new one.
// A run that ended "new" is followed by a restore of the old set in this process, so the next
// kill tests again. What a restore adds beside the data (a safety backup row, maybe left in
// progress by the kill; an audit entry) is outside the comparison: only the 'data' tables of
// BACKUP_TABLES are compared. CRASH_TEST_ROWS / CRASH_TEST_RUNS change the size and the runs.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreBackup } from './backup-restore.server.ts';
import { BACKUP_TABLES } from './backup-tables.server.ts';
import { createBackupNow } from './backups.server.ts';
import { prepareDatabase } from '../system/bootstrap.server.ts';
import type { BackupSettings } from '../../platform/config.server.ts';
import { systemActor, type ServiceContext } from '../../platform/context.ts';
import { COUNTED_TABLES } from '../../../db/migrations/0003_row_counts.ts';
import { generateData } from '../../../db/generate.ts';
import { createTestDatabase, OWNER_PASSWORD, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { noEngine } from '../../../test/context.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const NODE = path.join(root, 'node_modules', '.bin', 'node');
const CHILD = path.join(root, 'test', 'support', 'restore-child.ts');
/**
 * Generated expenses on top of the demo data (plus their budgets and revenue): a restore long
 * enough to be killed at many moments.
 */
const EXTRA_ROWS = Number(process.env.CRASH_TEST_ROWS ?? 15_000);
const RUNS = Number(process.env.CRASH_TEST_RUNS ?? 4);
const MIN_DELAY_MS = 50;

const DATA_TABLES = BACKUP_TABLES.filter((t) => t.group === 'data').map((t) => t.name);

type Fingerprint = Record<string, { rows: number; sha256: string }>;

/** Per data table: its row count and a hash of all its rows in id order. */
async function fingerprint(db: TestDatabase['db']): Promise<Fingerprint> {
  const out: Fingerprint = {};
  for (const table of DATA_TABLES) {
    const rows = await (db as any).selectFrom(table).selectAll().orderBy('id').execute();
    const hash = crypto.createHash('sha256');
    for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
    out[table] = { rows: rows.length, sha256: hash.digest('hex') };
  }
  return out;
}

const same = (a: Fingerprint, b: Fingerprint) => JSON.stringify(a) === JSON.stringify(b);

/** Integrity of the whole database; [] when sound, otherwise what is wrong. */
async function integrityProblems(database: TestDatabase): Promise<string[]> {
  const db = database.db;
  const problems: string[] = [];
  if (database.dialect === 'sqlite') {
    const check = (await sql.raw<Record<string, string>>('pragma integrity_check').execute(db)).rows.map(
      (r) => Object.values(r)[0],
    );
    if (check.join() !== 'ok') problems.push(`integrity_check: ${check.join('; ')}`);
    const orphans = (await sql.raw<Record<string, unknown>>('pragma foreign_key_check').execute(db)).rows;
    if (orphans.length) problems.push(`foreign_key_check: ${JSON.stringify(orphans.slice(0, 5))} (${orphans.length})`);
  } else {
    // Every single-column foreign key of this schema: no row may refer to a missing one.
    const { rows: keys } = await sql<{ child: string; column: string; parent: string; parentColumn: string }>`
      select cl.relname as child, a.attname as column, pcl.relname as parent, pa.attname as parent_column
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_class pcl on pcl.oid = c.confrelid
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      join pg_attribute pa on pa.attrelid = c.confrelid and pa.attnum = c.confkey[1]
      where c.contype = 'f' and n.nspname = current_schema() and cardinality(c.conkey) = 1`.execute(db);
    if (keys.length < 10) problems.push(`only ${keys.length} foreign keys found`);
    for (const k of keys) {
      const { rows } = await sql
        .raw<{ n: number }>(
          `select count(*)::int as n from "${k.child}" c where c."${k.column}" is not null and not exists (select 1 from "${k.parent}" p where p."${k.parentColumn}" = c."${k.column}")`,
        )
        .execute(db);
      if (rows[0].n > 0) problems.push(`${rows[0].n} rows of ${k.child}.${k.column} refer to missing ${k.parent} rows`);
    }
  }
  // The counts kept by triggers (or recomputed by the restore) agree with the tables.
  for (const table of COUNTED_TABLES) {
    const { rows: real } = await sql
      .raw<{ companyId: number; n: number }>(`select company_id, count(*) as n from ${table} group by company_id`)
      .execute(db);
    const { rows: kept } = await sql
      .raw<{ companyId: number; rowCount: number }>(
        `select company_id, row_count from row_counts where table_name = '${table}' and row_count <> 0`,
      )
      .execute(db);
    const a = Object.fromEntries(real.map((r) => [r.companyId, Number(r.n)]));
    const b = Object.fromEntries(kept.map((r) => [r.companyId, Number(r.rowCount)]));
    if (JSON.stringify(a) !== JSON.stringify(b))
      problems.push(`row_counts of ${table} ${JSON.stringify(b)} but the table has ${JSON.stringify(a)}`);
  }
  return problems;
}

/** The "old" set: rows deleted, changed and added across several tables since backup B. */
async function changeData(db: TestDatabase['db']): Promise<void> {
  const ids = async (table: 'actualExpenses' | 'budgets' | 'actualRevenue', every: number) =>
    (await db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id).filter((id) => id % every === 0);
  const deleted = await ids('actualExpenses', 17);
  for (let i = 0; i < deleted.length; i += 500)
    await db
      .deleteFrom('actualExpenses')
      .where('id', 'in', deleted.slice(i, i + 500))
      .execute();
  const changed = await ids('actualExpenses', 13);
  for (let i = 0; i < changed.length; i += 500) {
    await db
      .updateTable('actualExpenses')
      .set({ amountCents: 4242, description: 'changed after backup B' })
      .where('id', 'in', changed.slice(i, i + 500))
      .execute();
  }
  const budgets = await ids('budgets', 5);
  await db.updateTable('budgets').set({ amountCents: 777 }).where('id', 'in', budgets.slice(0, 500)).execute();
  await db
    .deleteFrom('actualRevenue')
    .where('id', 'in', (await ids('actualRevenue', 3)).slice(0, 500))
    .execute();
  await db.updateTable('companies').set({ description: 'changed after backup B' }).where('id', '=', 1).execute();
  await db.updateTable('users').set({ fullName: 'Changed After Backup' }).execute();
  // New parents with children: going back to B must remove the children first.
  const department = await db
    .insertInto('departments')
    .values({ name: 'Added after backup B' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const category = await db
    .insertInto('expenseCategories')
    .values({ companyId: 2, departmentId: department.id, name: 'Added after backup B' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const added = Array.from({ length: 2000 }, (_, i) => ({
    companyId: 2,
    departmentId: department.id,
    categoryId: category.id,
    amountCents: 100 + i,
    expenseDate: `2026-0${1 + (i % 9)}-1${i % 10}`,
    description: `added after backup B #${i}`,
  }));
  for (let i = 0; i < added.length; i += 200)
    await db
      .insertInto('actualExpenses')
      .values(added.slice(i, i + 200))
      .execute();
}

interface ChildRun {
  delayMs: number | null;
  killed: boolean;
  /** Milliseconds after `begin` at which it reported writing rows / having finished. */
  writingMs: number | null;
  doneMs: number | null;
  stderr: string;
}

/**
 * Runs the restoring child; with `delayMs` it is SIGKILLed that long after it begins the restore
 * (or, `from: 'writing'`, that long after it reports writing rows: a kill aimed at the writing
 * whatever the machine's load).
 */
function runChild(
  database: TestDatabase,
  backupId: number,
  delayMs: number | null,
  applicationName: string,
  from: 'begin' | 'writing' = 'begin',
): Promise<ChildRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: database.dataDir, RESTORE_BACKUP_ID: String(backupId) };
  delete env.DATABASE_URL;
  delete env.BACKUP_DIR;
  if (database.url) {
    const url = new URL(database.url);
    url.searchParams.set('application_name', applicationName);
    env.DATABASE_URL = url.toString();
  }
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [CHILD], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const run: ChildRun = { delayMs, killed: false, writingMs: null, doneMs: null, stderr: '' };
    let began = 0;
    let timer: NodeJS.Timeout | undefined;
    let buffered = '';
    const killLater = () => {
      if (delayMs === null) return;
      timer = setTimeout(() => {
        run.killed = child.kill('SIGKILL');
      }, delayMs);
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (run.stderr += chunk));
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line === 'begin') {
          began = performance.now();
          if (from === 'begin') killLater();
        } else if (line.startsWith('writing')) {
          run.writingMs = Math.round(performance.now() - began);
          if (from === 'writing') killLater();
        } else if (line.startsWith('done')) run.doneMs = Math.round(performance.now() - began);
      }
    });
    child.on('error', reject);
    // 'close', not 'exit': every line the child wrote before it died has been read by then.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' || code === 0) resolve(run);
      else reject(new Error(`restore child exited with ${code ?? signal}:\n${run.stderr}`));
    });
  });
}

/** PostgreSQL: until the killed child's backends have rolled back and gone. */
async function waitForBackends(database: TestDatabase, applicationName: string): Promise<void> {
  if (!database.url) return;
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where application_name = $1',
        [applicationName],
      );
      if (rows[0].n === 0) return;
      if (Date.now() > deadline)
        throw new Error(`the killed child's ${rows[0].n} PostgreSQL backends are still there after 20 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.end();
  }
}

describe.each(TEST_DIALECTS)('a restore killed at a random moment on %s', (dialect) => {
  let database: TestDatabase;
  let ctx: ServiceContext;
  let settings: BackupSettings;
  let newSet: Fingerprint;
  let oldSet: Fingerprint;
  let newBackupId: number;
  let oldBackupId: number;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await prepareDatabase(database, {
      seedDemo: true,
      owner: { email: 'owner@example.com', password: OWNER_PASSWORD },
    });
    await generateData(database, { rows: EXTRA_ROWS, url: database.url, seed: 15 });
    ctx = { db: database.db, actor: systemActor('cli'), meta: {}, runtime: noEngine() };
    settings = { dir: path.join(database.dataDir, 'backups'), schedule: '0 2 * * *', keep: 14 };
    newBackupId = (await createBackupNow(ctx, settings, { name: 'B (new)' })).id;
    newSet = await fingerprint(database.db);
    await changeData(database.db);
    oldSet = await fingerprint(database.db);
    oldBackupId = (await createBackupNow(ctx, settings, { name: 'old' })).id;
    for (const table of [
      'actualExpenses',
      'budgets',
      'actualRevenue',
      'companies',
      'departments',
      'expenseCategories',
      'users',
    ]) {
      expect(oldSet[table], table).not.toEqual(newSet[table]);
    }
  }, 120_000);
  afterAll(() => database?.destroy());

  /** Back to the old set, in this process, after a run that ended with the new one. */
  async function resetToOld(): Promise<void> {
    await restoreBackup(ctx, settings, { backupId: oldBackupId }, { overwrite: true, skipAuditLogs: true });
    expect(same(await fingerprint(database.db), oldSet)).toBe(true);
  }

  it('leaves the data fully old or fully new, and the database sound', async () => {
    // An uninterrupted run first: it must end "new", and it gives the range of kill delays.
    const appName = (i: number | string) => `finhub-crash-${process.pid}-${i}`;
    const full = await runChild(database, newBackupId, null, appName('full'));
    expect(full.doneMs).not.toBeNull();
    expect(await integrityProblems(database)).toEqual([]);
    expect(same(await fingerprint(database.db), newSet)).toBe(true);
    await resetToOld();
    const duration = full.doneMs!;

    const outcomes: { delayMs: number; phase: string; result: 'old' | 'new' }[] = [];
    const killAt = async (i: number, delayMs: number, from: 'begin' | 'writing' = 'begin') => {
      const run = await runChild(database, newBackupId, delayMs, appName(i), from);
      await waitForBackends(database, appName(i));
      expect(await integrityProblems(database), `run ${i} (killed after ${delayMs} ms)`).toEqual([]);
      const now = await fingerprint(database.db);
      const result = same(now, oldSet) ? 'old' : same(now, newSet) ? 'new' : null;
      if (result === null) {
        const fromOld = DATA_TABLES.filter((t) => JSON.stringify(now[t]) !== JSON.stringify(oldSet[t]));
        const fromNew = DATA_TABLES.filter((t) => JSON.stringify(now[t]) !== JSON.stringify(newSet[t]));
        throw new Error(
          `run ${i} (killed after ${delayMs} ms): neither old nor new; differs from old in ${fromOld.join(', ')}, from new in ${fromNew.join(', ')}`,
        );
      }
      // A run that reported done must have restored; one killed just after its commit may be new too.
      if (run.doneMs !== null) expect(result).toBe('new');
      const phase = run.doneMs !== null ? 'finished' : run.writingMs !== null ? 'writing rows' : 'before writing rows';
      outcomes.push({ delayMs, phase, result });
      if (result === 'new') await resetToOld();
    };
    // Stratified: run i is killed somewhere in the i-th slice of [50 ms, duration].
    const slice = Math.max(1, duration - MIN_DELAY_MS) / RUNS;
    for (let i = 0; i < RUNS; i++) await killAt(i, Math.round(MIN_DELAY_MS + (i + Math.random()) * slice));
    // The transaction's row writing is the heart of it: when no kill landed there (a run slower
    // or faster than the first), up to three more runs are killed a random moment after they
    // report writing rows (within the first run's writing time, halved each try).
    const writing = Math.max(2, duration - (full.writingMs ?? MIN_DELAY_MS));
    for (let extra = 0; extra < 3 && !outcomes.some((o) => o.phase === 'writing rows'); extra++) {
      await killAt(RUNS + extra, Math.round((Math.random() * writing) / 2 ** (extra + 1)), 'writing');
    }
    console.log(
      `[crash test ${dialect}] uninterrupted restore ${duration} ms (rows from ${full.writingMs} ms); ` +
        `runs: ${outcomes.map((o) => `${o.delayMs} ms → ${o.phase}, ${o.result}`).join('; ')}`,
    );
    // The test proves something only if runs were really cut short, some while writing rows.
    expect(outcomes.filter((o) => o.phase !== 'finished').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.some((o) => o.phase === 'writing rows')).toBe(true);
  }, 240_000);
});
