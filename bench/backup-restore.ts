// Backup and restore of ~1M rows (docs/decisions.md): `createBackupNow` and
// `restoreBackup` (overwrite, into an empty migrated database) on SQLite and PostgreSQL, each
// timed in its own process with its peak RSS, beside the databases' own tools in the same run:
// SQLite `sqlite3 .backup` (page copy), `.restore` and a logical `.dump` / `.read`;
// PostgreSQL `pg_dump -Fc` of the schema and `pg_restore -1` into a fresh database.
// Goal: restore within 2× `pg_restore -1`; memory flat.
//
//   npx node bench/backup-restore.ts                               # 1M rows, SQLite, and PostgreSQL when a URL is known
//   npx node bench/backup-restore.ts --rows 100000                 # quick check
//   npx node bench/backup-restore.ts --database-url postgres://postgres@127.0.0.1:5432/test --only postgres
//   npx node bench/backup-restore.ts --profile                     # also: where the restore's time goes
//
// Options: --rows N (actual expenses in the source, default 1,000,000), --repeat N (median of N
// runs per step, default 1), --only sqlite|postgres, --database-url URL (else DATABASE_URL or
// TEST_DATABASE_URL; without one PostgreSQL is skipped), --data-dir D (SQLite sources, kept
// between runs), --wait-quiet S (wait up to S seconds before each step for the cores to be
// idle), --profile (statement timings, a read-only pass over the file, what-if restores into
// targets without the expense table's secondary indexes / row-count triggers (SQLite) / foreign
// keys (PostgreSQL), per-phase times), --cpu-prof (V8 profile of the restore process, summarised
// with bench/cpu-profile.ts), --node-args "--max-semi-space-size=8" (Node flags for our steps'
// processes; the finhub bin runs with that one, the server and the worker without).
//
// Sources: `seedExpenses` (bench/seed-expenses.ts: migrations, reference data, the owner, then N
// generated actual expenses): SQLite in <data-dir>/sqlite-<N>, PostgreSQL in the schema
// finhub_bench_backup_<N> of the given database, both kept between runs (drop the schema with
// `drop schema finhub_bench_backup_<N> cascade`). Each step of ours runs in a child process
// (this file with --step): its time is measured inside it around the one service call (start-up
// and imports excluded), its peak RSS is the process's maxRSS, and RSS is also recorded at every
// tenth of the rows, which shows whether memory grows with the rows. The tools run under
// /usr/bin/time (wall time including their start-up, and their max RSS; for PostgreSQL the
// server's own memory is in neither figure). Results: a table on stdout and JSON in bench/results/.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { restoreBackup } from '../app/features/backups/backup-restore.server.ts';
import { readBackupFile } from '../app/features/backups/backup-file.server.ts';
import { createBackupNow, backupFilePath } from '../app/features/backups/backups.server.ts';
import type { BackupSettings } from '../app/platform/config.server.ts';
import { systemActor, type ServiceContext } from '../app/platform/context.ts';
import { createDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { argValue, numberArg } from './constants.ts';
import { seedExpenses } from './seed-expenses.ts';
import { createRuntime } from '../app/platform/runtime.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SELF = path.join(root, 'bench', 'backup-restore.ts');
const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Child: one step, measured from inside. Prints `RESULT {json}` as its last line.
// ---------------------------------------------------------------------------------------------

interface StepResult {
  step: string;
  seconds: number;
  rows: number;
  /** Backup: bytes of the file written. Read: bytes of the file read. */
  bytes?: number;
  file?: string;
  /** RSS after start-up and imports, before the step (MB). */
  startRssMb: number;
  /** The process's peak RSS (getrusage maxRSS, MB). */
  peakRssMb: number;
  /** RSS at every tenth of the rows (MB). */
  rssAtTenthsMb: number[];
  /** V8 heap used at its largest sample (every 50 ms, MB). */
  peakHeapMb: number;
  /** The largest RSS sample (every 50 ms): MB, seconds into the step, rows done by then. */
  peakSample: { rssMb: number; atSeconds: number; rowsDone: number };
  /** CPU seconds of this process (user + system) during the step. */
  cpuSeconds: number;
  /** Restore: seconds until the first row was written (safety backup, plan, removing rows not in the backup) and after the last. */
  beforeRowsSeconds?: number;
  afterRowsSeconds?: number;
  /** --profile: wall time per kind of statement (seconds, count). */
  statements?: Record<string, { seconds: number; count: number }>;
}

/** Statement kind from its SQL: `insert actual_expenses`, `delete users`, `savepoint`, … */
function statementKind(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim().toLowerCase();
  let m = /^insert (?:or ignore )?into "?([a-z_]+)"?/.exec(s);
  if (m) return `insert ${m[1]}`;
  m = /^delete from "?([a-z_]+)"?/.exec(s);
  if (m) return `delete ${m[1]}`;
  m = /^update "?([a-z_]+)"?/.exec(s);
  if (m) return `update ${m[1]}`;
  if (/^(savepoint|release|rollback to)/.test(s)) return 'savepoints';
  if (/^select setval/.test(s)) return 'setval';
  if (/^alter table/.test(s)) return 'alter table (triggers)';
  if (/^(begin|commit|start transaction|set transaction)/.test(s)) return 'begin/commit';
  if (/^select/.test(s)) return 'select';
  return s.slice(0, 30);
}

/** Wall time per statement kind: wraps pg's Client#query and better-sqlite3's Statement#run/all. */
function instrumentStatements(): Record<string, { seconds: number; count: number }> {
  const totals: Record<string, { seconds: number; count: number }> = {};
  const add = (text: string, ms: number) => {
    const kind = statementKind(text);
    const t = (totals[kind] ??= { seconds: 0, count: 0 });
    t.seconds += ms / 1000;
    t.count++;
  };
  const query = pg.Client.prototype.query as (...args: any[]) => any;
  pg.Client.prototype.query = function (this: pg.Client, ...args: any[]) {
    const text = typeof args[0] === 'string' ? args[0] : typeof args[0]?.text === 'string' ? args[0].text : null;
    const started = performance.now();
    const result = query.apply(this, args);
    if (text && result && typeof result.then === 'function') {
      return result.then((value: unknown) => {
        add(text, performance.now() - started);
        return value;
      });
    }
    return result;
  } as typeof pg.Client.prototype.query;
  const memory = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(memory.prepare('select 1')) as Record<string, (...args: any[]) => any>;
  memory.close();
  for (const method of ['run', 'all', 'get']) {
    const original = proto[method];
    proto[method] = function (this: { source: string }, ...args: any[]) {
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        add(this.source, performance.now() - started);
      }
    };
  }
  return totals;
}

async function runStep(step: string, argv: string[]): Promise<void> {
  const statements = argv.includes('--instrument') ? instrumentStatements() : undefined;
  const url = process.env.DATABASE_URL || undefined;
  const startRss = process.memoryUsage().rss;
  const started = performance.now();
  let peakHeap = process.memoryUsage().heapUsed;
  let rowsDone = 0;
  const peakSample = { rssMb: startRss / MB, atSeconds: 0, rowsDone: 0 };
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peakHeap = Math.max(peakHeap, heapUsed);
    if (rss / MB > peakSample.rssMb)
      Object.assign(peakSample, { rssMb: rss / MB, atSeconds: (performance.now() - started) / 1000, rowsDone });
  };
  const sampler = setInterval(sample, 50);
  const tenths: number[] = [];
  const progress = (done: number, total: number) => {
    rowsDone = done;
    while (total > 0 && tenths.length < 10 && done >= ((tenths.length + 1) / 10) * total)
      tenths.push(process.memoryUsage().rss / MB);
  };
  const cpu = process.cpuUsage();
  let result: Omit<
    StepResult,
    'step' | 'seconds' | 'startRssMb' | 'peakRssMb' | 'rssAtTenthsMb' | 'peakHeapMb' | 'peakSample' | 'cpuSeconds'
  >;
  if (step === 'read') {
    // The file alone: gunzip, lines, JSON.parse and the format's checks (a restore reads it twice).
    const file = process.env.BENCH_FILE!;
    let rows = 0;
    let total = 0;
    for await (const event of readBackupFile(file, 1000)) {
      if (event.kind === 'manifest') total = event.manifest.rows;
      if (event.kind === 'rows') progress((rows += event.rows.length), total);
    }
    result = { rows, bytes: fs.statSync(file).size };
  } else {
    const handle = createDatabase({ url, dataDir: process.env.DATA_DIR, poolSize: 3 });
    const ctx: ServiceContext = { db: handle.db, actor: systemActor('cli'), meta: {}, runtime: createRuntime() };
    const settings: BackupSettings = { dir: process.env.BACKUP_DIR!, schedule: '0 2 * * *', keep: 1000 };
    try {
      if (step === 'backup') {
        const backup = await createBackupNow(ctx, settings, { name: 'bench' }, 'manual', progress);
        const row = await handle.db
          .selectFrom('backups')
          .select('fileName')
          .where('id', '=', backup.id)
          .executeTakeFirstOrThrow();
        result = { rows: backup.recordCount, bytes: backup.size, file: backupFilePath(settings, row.fileName!) };
      } else if (step === 'restore') {
        let first = 0;
        let last = 0;
        const restored = await restoreBackup(
          ctx,
          settings,
          { file: process.env.BENCH_FILE! },
          { overwrite: true },
          (done, total) => {
            last = performance.now();
            if (!first) first = last;
            progress(done, total);
          },
        );
        const ended = performance.now();
        result = {
          rows: restored.rows,
          beforeRowsSeconds: (first - started) / 1000,
          afterRowsSeconds: (ended - last) / 1000,
        };
      } else throw new Error(`unknown step ${step}`);
    } finally {
      await handle.close();
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  sample();
  clearInterval(sampler);
  const out: StepResult = {
    step,
    seconds,
    ...result,
    startRssMb: startRss / MB,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    rssAtTenthsMb: tenths,
    peakHeapMb: peakHeap / MB,
    peakSample,
    cpuSeconds: (used.user + used.system) / 1e6,
    statements,
  };
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

// ---------------------------------------------------------------------------------------------
// Orchestrator
// ---------------------------------------------------------------------------------------------

interface Options {
  rows: number;
  repeat: number;
  dialects: ('sqlite' | 'postgres')[];
  databaseUrl?: string;
  dataDir: string;
  waitQuiet: number;
  profile: boolean;
  cpuProf: boolean;
  /** Node flags for our steps' processes (e.g. --max-semi-space-size=8, as the finhub bin runs). */
  nodeArgs: string[];
}

function options(argv: string[]): Options {
  const databaseUrl = argValue(argv, 'database-url') ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const only = argValue(argv, 'only');
  const dialects = (only ? only.split(',') : ['sqlite', 'postgres']).filter(
    (d): d is 'sqlite' | 'postgres' => d === 'sqlite' || d === 'postgres',
  );
  if (dialects.includes('postgres') && !databaseUrl) {
    if (only?.includes('postgres'))
      throw new Error('PostgreSQL needs --database-url (or DATABASE_URL / TEST_DATABASE_URL)');
    dialects.splice(dialects.indexOf('postgres'), 1);
    console.log('(no PostgreSQL URL: SQLite only)');
  }
  return {
    rows: numberArg(argv, 'rows', 1_000_000),
    repeat: Math.max(1, numberArg(argv, 'repeat', 1)),
    dialects,
    databaseUrl,
    dataDir: path.resolve(argValue(argv, 'data-dir') ?? path.join(os.tmpdir(), 'finhub-backup-bench')),
    waitQuiet: numberArg(argv, 'wait-quiet', 0),
    profile: argv.includes('--profile'),
    cpuProf: argv.includes('--cpu-prof'),
    nodeArgs: (argValue(argv, 'node-args') ?? '').split(' ').filter(Boolean),
  };
}

/** Share of all cores busy over `ms` (from /proc/stat). */
async function machineBusy(ms = 1000): Promise<number> {
  const read = () => {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: cpu[3] + (cpu[4] ?? 0), total: cpu.reduce((a, b) => a + b, 0) };
  };
  const a = read();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = read();
  return b.total === a.total ? NaN : 1 - (b.idle - a.idle) / (b.total - a.total);
}

async function waitQuiet(opts: Options, label: string): Promise<number> {
  let busy = await machineBusy(500);
  const deadline = Date.now() + opts.waitQuiet * 1000;
  let warned = false;
  while (opts.waitQuiet > 0 && busy > 0.1 && Date.now() < deadline) {
    if (!warned)
      console.log(`  (${label}: waiting for other work to finish: ${(busy * 100).toFixed(0)}% of the cores busy)`);
    warned = true;
    busy = await machineBusy(2000);
  }
  return busy;
}

/** Node flags of every step process (--node-args). */
let stepNodeArgs: string[] = [];

/** One of our steps in a child process. */
function child(
  step: string,
  env: Record<string, string | undefined>,
  extraArgs: string[] = [],
  nodeArgs: string[] = [],
): Promise<StepResult & { processSeconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const proc = spawn(process.execPath, [...stepNodeArgs, ...nodeArgs, SELF, '--step', step, ...extraArgs], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk: string) => (out += chunk));
    proc.on('error', reject);
    proc.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) return reject(new Error(`step ${step} failed (${code}):\n${out}`));
      resolve({ ...(JSON.parse(line.slice(7)) as StepResult), processSeconds: (performance.now() - started) / 1000 });
    });
  });
}

interface ToolRun {
  seconds: number;
  peakRssMb: number;
}

/** A command under /usr/bin/time: wall seconds (start-up included) and its max RSS. */
function tool(
  command: string[],
  options: { stdoutFile?: string; env?: Record<string, string | undefined> } = {},
): ToolRun {
  const timing = path.join(os.tmpdir(), `finhub-backup-bench-time-${process.pid}.txt`);
  const fd = options.stdoutFile ? fs.openSync(options.stdoutFile, 'w') : 'ignore';
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M', '-o', timing, ...command], {
    stdio: ['ignore', fd, 'pipe'],
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
  });
  if (typeof fd === 'number') fs.closeSync(fd);
  if (result.status !== 0) throw new Error(`${command.join(' ')} failed (${result.status}):\n${result.stderr}`);
  const [seconds, kb] = fs.readFileSync(timing, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  fs.rmSync(timing, { force: true });
  return { seconds, peakRssMb: kb / 1024 };
}

const median = <T>(runs: T[], key: (t: T) => number): T =>
  [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)];

async function repeated<T extends { seconds: number }>(
  opts: Options,
  label: string,
  run: () => Promise<T> | T,
): Promise<T & { busyBefore: number }> {
  const runs: (T & { busyBefore: number })[] = [];
  for (let i = 0; i < opts.repeat; i++) {
    const busyBefore = await waitQuiet(opts, label);
    const r = await run();
    runs.push({ ...r, busyBefore });
    console.log(
      `  ${label}${opts.repeat > 1 ? ` #${i + 1}` : ''}: ${r.seconds.toFixed(2)} s${'peakRssMb' in r ? `, peak RSS ${(r as unknown as ToolRun).peakRssMb.toFixed(0)} MB` : ''} (cores ${(busyBefore * 100).toFixed(0)}% busy before)`,
    );
  }
  return median(runs, (r) => r.seconds);
}

function postgresBin(name: string): string {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((v) => fs.existsSync(path.join(base, v, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length ? path.join(base, versions[0], 'bin', name) : name;
}

function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  u.searchParams.delete('options');
  return u.toString();
}

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(url, new URL(url).pathname.slice(1)) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

type Strip = 'indexes' | 'triggers' | 'foreignKeys';
const STRIPPED: Record<Strip, string> = {
  indexes: 'secondary indexes',
  triggers: 'row-count triggers',
  foreignKeys: 'foreign keys',
};

/** What-if targets: drops the secondary indexes, the row-count triggers (SQLite) or the foreign keys (PostgreSQL) of actual_expenses in an empty target. */
async function stripTarget(
  dialect: 'sqlite' | 'postgres',
  target: { file?: string; url?: string },
  what: Strip,
): Promise<number> {
  if (dialect === 'sqlite') {
    const db = new SQLite(target.file!);
    try {
      const type = what === 'indexes' ? 'index' : 'trigger';
      const names = (
        db
          .prepare("select name from sqlite_master where type = ? and tbl_name = 'actual_expenses' and sql is not null")
          .all(type) as { name: string }[]
      ).map((r) => r.name);
      for (const name of names) db.exec(`drop ${type} "${name}"`);
      return names.length;
    } finally {
      db.close();
    }
  }
  return admin(target.url!, async (client) => {
    const schema = /search_path=(\S+)/.exec(new URL(target.url!).searchParams.get('options') ?? '')?.[1];
    if (what === 'foreignKeys') {
      const { rows } = await client.query<{ name: string }>(
        "select conname as name from pg_constraint where contype = 'f' and conrelid = ($1 || '.actual_expenses')::regclass",
        [schema],
      );
      for (const r of rows) await client.query(`alter table "${schema}".actual_expenses drop constraint "${r.name}"`);
      return rows.length;
    }
    const { rows } = await client.query<{ name: string }>(
      "select indexname as name from pg_indexes where schemaname = $1 and tablename = 'actual_expenses' and indexname not in (select conname from pg_constraint where conrelid = ($1 || '.actual_expenses')::regclass)",
      [schema],
    );
    for (const r of rows) await client.query(`drop index "${schema}"."${r.name}"`);
    return rows.length;
  });
}

interface DialectReport {
  dialect: 'sqlite' | 'postgres';
  sourceRows: number;
  backupFileMb: number;
  backup: StepResult & { processSeconds: number; busyBefore: number };
  restore: StepResult & { processSeconds: number; busyBefore: number };
  baselines: Record<string, ToolRun & { busyBefore: number; note: string; fileMb?: number }>;
  profile?: Record<string, unknown>;
}

async function benchSqlite(opts: Options, work: string): Promise<DialectReport> {
  if (spawnSync('sh', ['-c', 'command -v sqlite3']).status !== 0)
    throw new Error('sqlite3 is missing: apt-get install -y sqlite3');
  const dataDir = path.join(opts.dataDir, `sqlite-${opts.rows}`);
  console.log(`\nSQLite: source ${dataDir}`);
  await seedExpenses({ dataDir, rows: opts.rows, log: (l) => console.log(`  ${l}`) });
  const source = path.join(dataDir, 'finhub.db');
  const backupDir = path.join(work, 'sqlite-backups');
  const backup = await repeated(opts, 'finhub backup', () =>
    child('backup', { DATA_DIR: dataDir, BACKUP_DIR: backupDir, DATABASE_URL: '' }),
  );
  const file = backup.file!;

  /** A fresh, empty, migrated target directory. */
  const target = async () => {
    const dir = fs.mkdtempSync(path.join(work, 'sqlite-target-'));
    const handle = createDatabase({ dataDir: dir });
    await migrateToLatest(handle.db);
    await handle.close();
    return dir;
  };
  const restoreInto = async (dir: string, extra: string[] = [], nodeArgs: string[] = []) => {
    try {
      return await child(
        'restore',
        { DATA_DIR: dir, BACKUP_DIR: path.join(dir, 'backups'), DATABASE_URL: '', BENCH_FILE: file },
        extra,
        nodeArgs,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const restore = await repeated(opts, 'finhub restore', async () => restoreInto(await target()));

  const copy = path.join(work, 'sqlite-copy.db');
  const dump = path.join(work, 'sqlite-dump.sql');
  const baselines: DialectReport['baselines'] = {};
  const fresh = (name: string) => {
    const f = path.join(work, name);
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(f + suffix, { force: true });
    return f;
  };
  baselines['sqlite3 .backup'] = {
    ...(await repeated(opts, 'sqlite3 .backup', () => tool(['sqlite3', source, `.backup ${fresh('sqlite-copy.db')}`]))),
    note: 'page copy of the whole file',
    fileMb: fs.statSync(copy).size / MB,
  };
  baselines['sqlite3 .restore'] = {
    ...(await repeated(opts, 'sqlite3 .restore', () =>
      tool(['sqlite3', fresh('sqlite-restored.db'), `.restore ${copy}`]),
    )),
    note: 'page copy back into a new file',
  };
  baselines['sqlite3 .dump'] = {
    ...(await repeated(opts, 'sqlite3 .dump', () => tool(['sqlite3', source, '.dump'], { stdoutFile: dump }))),
    note: 'logical: SQL text of schema and rows',
    fileMb: fs.statSync(dump).size / MB,
  };
  baselines['sqlite3 .read (dump)'] = {
    ...(await repeated(opts, 'sqlite3 .read dump', () =>
      tool(['sqlite3', fresh('sqlite-loaded.db'), `.read ${dump}`]),
    )),
    note: 'logical: one transaction, indexes and triggers created after the rows',
  };
  fs.rmSync(dump, { force: true });

  let profile: DialectReport['profile'];
  if (opts.profile || opts.cpuProf)
    profile = await profileRestore(opts, 'sqlite', file, async (what = []) => {
      const dir = await target();
      const file = path.join(dir, 'finhub.db');
      let stripped = 0;
      for (const w of what) stripped += await stripTarget('sqlite', { file }, w);
      return { run: (extra: string[], nodeArgs: string[]) => restoreInto(dir, extra, nodeArgs), stripped };
    });
  return {
    dialect: 'sqlite',
    sourceRows: backup.rows,
    backupFileMb: backup.bytes! / MB,
    backup,
    restore,
    baselines,
    profile,
  };
}

async function benchPostgres(opts: Options, work: string): Promise<DialectReport> {
  const base = opts.databaseUrl!;
  const schema = `finhub_bench_backup_${opts.rows}`;
  const sourceUrl = withSearchPath(base, schema);
  console.log(`\nPostgreSQL: source schema ${schema} in ${new URL(base).pathname.slice(1)}`);
  await admin(base, (c) => c.query(`create schema if not exists ${schema}`));
  await seedExpenses({ dataDir: work, databaseUrl: sourceUrl, rows: opts.rows, log: (l) => console.log(`  ${l}`) });
  const backupDir = path.join(work, 'postgres-backups');
  const backup = await repeated(opts, 'finhub backup', () =>
    child('backup', { DATABASE_URL: sourceUrl, BACKUP_DIR: backupDir, DATA_DIR: work }),
  );
  const file = backup.file!;

  let targets = 0;
  /** A fresh, empty, migrated schema. */
  const target = async () => {
    const name = `finhub_bench_restore_${process.pid}_${targets++}`;
    await admin(base, (c) => c.query(`create schema ${name}`));
    const url = withSearchPath(base, name);
    const handle = createDatabase({ url, poolSize: 1 });
    await migrateToLatest(handle.db);
    await handle.close();
    return { name, url };
  };
  const restoreInto = async (t: { name: string; url: string }, extra: string[] = [], nodeArgs: string[] = []) => {
    try {
      return await child(
        'restore',
        { DATABASE_URL: t.url, BACKUP_DIR: path.join(work, `${t.name}-backups`), DATA_DIR: work, BENCH_FILE: file },
        extra,
        nodeArgs,
      );
    } finally {
      await admin(base, (c) => c.query(`drop schema if exists ${t.name} cascade`));
    }
  };
  const restore = await repeated(opts, 'finhub restore', async () => restoreInto(await target()));

  const dump = path.join(work, 'postgres.dump');
  const baselines: DialectReport['baselines'] = {};
  const dbUrl = withDatabase(base, new URL(base).pathname.slice(1));
  baselines['pg_dump -Fc'] = {
    ...(await repeated(opts, 'pg_dump -Fc', () =>
      tool([postgresBin('pg_dump'), '-Fc', '-n', schema, '-f', dump, dbUrl]),
    )),
    note: 'custom format (compressed) of the schema',
    fileMb: fs.statSync(dump).size / MB,
  };
  let restores = 0;
  baselines['pg_restore -1'] = {
    ...(await repeated(opts, 'pg_restore -1', async () => {
      const name = `finhub_bench_pg_restore_${process.pid}_${restores++}`;
      await admin(base, (c) => c.query(`create database ${name}`));
      try {
        const run = tool([postgresBin('pg_restore'), '-1', '-d', withDatabase(base, name), dump]);
        const client = new pg.Client({ connectionString: withDatabase(base, name) });
        await client.connect();
        const { rows } = await client.query(`select count(*)::int as n from ${schema}.actual_expenses`);
        await client.end();
        if (rows[0].n < opts.rows) throw new Error(`pg_restore restored ${rows[0].n} expenses`);
        return run;
      } finally {
        await admin(base, (c) => c.query(`drop database if exists ${name}`));
      }
    })),
    note: 'one transaction into a fresh database: schema, rows (COPY), then indexes, constraints and triggers',
  };
  fs.rmSync(dump, { force: true });

  let profile: DialectReport['profile'];
  if (opts.profile || opts.cpuProf)
    profile = await profileRestore(opts, 'postgres', file, async (what = []) => {
      const t = await target();
      let stripped = 0;
      for (const w of what) stripped += await stripTarget('postgres', { url: t.url }, w);
      return { run: (extra: string[], nodeArgs: string[]) => restoreInto(t, extra, nodeArgs), stripped };
    });
  return {
    dialect: 'postgres',
    sourceRows: backup.rows,
    backupFileMb: backup.bytes! / MB,
    backup,
    restore,
    baselines,
    profile,
  };
}

type Prepared = {
  run: (extra: string[], nodeArgs: string[]) => Promise<StepResult & { processSeconds: number }>;
  stripped: number;
};

/** Where the restore's time goes: statement timings, the file alone, what-if targets, a CPU profile. */
async function profileRestore(
  opts: Options,
  dialect: 'sqlite' | 'postgres',
  file: string,
  prepare: (what?: Strip[]) => Promise<Prepared>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (opts.profile) {
    await waitQuiet(opts, 'read');
    const read = await child('read', { BENCH_FILE: file });
    console.log(
      `  read the file alone (gunzip, lines, JSON.parse, checks): ${read.seconds.toFixed(2)} s, ${Math.round(read.rows / read.seconds).toLocaleString('en-US')} rows/s`,
    );
    out.readFile = read;
    await waitQuiet(opts, 'instrumented restore');
    const instrumented = await (await prepare()).run(['--instrument'], []);
    const statements = Object.entries(instrumented.statements ?? {}).sort((a, b) => b[1].seconds - a[1].seconds);
    const inStatements = statements.reduce((s, [, v]) => s + v.seconds, 0);
    console.log(
      `  instrumented restore: ${instrumented.seconds.toFixed(2)} s (${instrumented.beforeRowsSeconds!.toFixed(2)} s before the first row, ${instrumented.afterRowsSeconds!.toFixed(2)} s after the last), node CPU ${instrumented.cpuSeconds.toFixed(2)} s, statements ${inStatements.toFixed(2)} s:`,
    );
    for (const [kind, v] of statements.slice(0, 12))
      console.log(`    ${v.seconds.toFixed(2).padStart(7)} s ${String(v.count).padStart(7)}× ${kind}`);
    out.instrumented = instrumented;
    // What-if targets (this bench's own change to an empty target, never the app's schema).
    const variants: Strip[][] =
      dialect === 'sqlite'
        ? [['triggers'], ['indexes'], ['indexes', 'triggers']]
        : [['indexes'], ['foreignKeys'], ['indexes', 'foreignKeys']];
    for (const what of variants) {
      const label = what.map((w) => STRIPPED[w]).join(' and ');
      await waitQuiet(opts, `restore without ${label}`);
      const prepared = await prepare(what);
      const run = await prepared.run([], []);
      console.log(
        `  restore into a target without the expense ${label} (${prepared.stripped} dropped): ${run.seconds.toFixed(2)} s, node CPU ${run.cpuSeconds.toFixed(2)} s`,
      );
      out[`without ${label}`] = { ...run, stripped: prepared.stripped };
    }
  }
  if (opts.cpuProf) {
    const dir = path.join(
      root,
      'bench',
      'results',
      `cpu-prof-backup-restore-${dialect}-${new Date().toISOString().replace(/[:.]/g, '-')}`,
    );
    await waitQuiet(opts, 'profiled restore');
    const run = await (await prepare()).run([], ['--cpu-prof', '--cpu-prof-dir', dir]);
    console.log(
      `  profiled restore: ${run.seconds.toFixed(2)} s; profile in ${dir} (npx node bench/cpu-profile.ts ${path.relative(root, dir)})`,
    );
    out.cpuProfileDir = dir;
  }
  return out;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const rate = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en-US');

async function main(argv: string[]): Promise<void> {
  const opts = options(argv);
  stepNodeArgs = opts.nodeArgs;
  if (spawnSync('sh', ['-c', 'command -v /usr/bin/time']).status !== 0)
    throw new Error('/usr/bin/time is missing: apt-get install -y time');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-backup-bench-run-'));
  const reports: DialectReport[] = [];
  try {
    for (const dialect of opts.dialects)
      reports.push(dialect === 'sqlite' ? await benchSqlite(opts, work) : await benchPostgres(opts, work));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  console.log(
    `\n${opts.rows.toLocaleString('en-US')} actual expenses${opts.repeat > 1 ? ` (median of ${opts.repeat})` : ''}, ${os.cpus().length} cores${opts.nodeArgs.length ? `, steps run with node ${opts.nodeArgs.join(' ')}` : ''}\n`,
  );
  console.log('| dialect | step | seconds | rows/s | peak RSS MB | RSS at start → 10 % → 100 % of rows | file MB |');
  console.log('| --- | --- | ---: | ---: | ---: | --- | ---: |');
  for (const r of reports) {
    const line = (step: string, s: StepResult & { processSeconds: number }, fileMb?: number) =>
      console.log(
        `| ${r.dialect} | ${step} | ${fmt(s.seconds)} | ${rate(s.rows, s.seconds)} | ${fmt(s.peakRssMb, 0)} | ${fmt(s.startRssMb, 0)} → ${fmt(s.rssAtTenthsMb[0] ?? NaN, 0)} → ${fmt(s.rssAtTenthsMb.at(-1) ?? NaN, 0)} | ${fileMb === undefined ? '' : fmt(fileMb, 1)} |`,
      );
    line('finhub backup', r.backup, r.backupFileMb);
    line('finhub restore', r.restore);
    for (const [name, b] of Object.entries(r.baselines)) {
      console.log(
        `| ${r.dialect} | ${name} | ${fmt(b.seconds)} | ${rate(r.sourceRows, b.seconds)} | ${fmt(b.peakRssMb, 0)} | | ${b.fileMb === undefined ? '' : fmt(b.fileMb, 1)} |`,
      );
    }
  }
  console.log('');
  for (const r of reports) {
    const against = r.dialect === 'postgres' ? r.baselines['pg_restore -1'] : r.baselines['sqlite3 .read (dump)'];
    const name = r.dialect === 'postgres' ? 'pg_restore -1' : 'sqlite3 .read of a .dump';
    const ratio = r.restore.seconds / against.seconds;
    console.log(
      `${r.dialect}: restore ${fmt(ratio)}× ${name}${r.dialect === 'postgres' ? ` (goal ≤ 2×: ${ratio <= 2 ? 'met' : 'NOT met'})` : ''}; ` +
        `${fmt(r.restore.beforeRowsSeconds!)} s before the first row is written (safety backup, plan, ids of the backup), ${fmt(r.restore.afterRowsSeconds!)} s after the last; ` +
        `backup ${fmt(r.backup.seconds / (r.dialect === 'postgres' ? r.baselines['pg_dump -Fc'].seconds : r.baselines['sqlite3 .backup'].seconds))}× ${r.dialect === 'postgres' ? 'pg_dump -Fc' : 'sqlite3 .backup'}; ` +
        `peak RSS backup ${fmt(r.backup.peakRssMb, 0)} MB, restore ${fmt(r.restore.peakRssMb, 0)} MB (start ${fmt(r.restore.startRssMb, 0)} MB)`,
    );
  }
  const resultsDir = path.join(root, 'bench', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const report = path.join(resultsDir, `backup-restore-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(
    report,
    JSON.stringify(
      {
        rows: opts.rows,
        repeat: opts.repeat,
        nodeArgs: opts.nodeArgs,
        cores: os.cpus().length,
        node: process.version,
        results: reports,
      },
      null,
      2,
    ),
  );
  console.log(`\nreport: ${report}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const step = argValue(argv, 'step');
  (step ? runStep(step, argv) : main(argv)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
