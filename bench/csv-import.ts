// The generic CSV import (`importCsv`, app/platform/resources/import/csv-import.server.ts) of a
// large budgets file, as the import screens, the API's import jobs and `finhub import` run it:
// rows per second of a dry run (every row checked, nothing written) and of the import (mode
// 'all': every row written in one transaction with its audit entry and version), and memory
// while the file streams through. Goal: ≥ 50,000 rows/s on SQLite, ≥ 20,000 on PostgreSQL, with
// memory flat (the peak RSS at 100k rows read and at the end of a 1M-row file the same).
//
//   npx node bench/csv-import.ts                                   # 1M rows, SQLite, and PostgreSQL when a URL is known
//   npx node bench/csv-import.ts --db sqlite --rows 100000         # quick check
//   npx node bench/csv-import.ts --db postgres --database-url postgres://postgres@127.0.0.1:5432/test
//   npx node bench/csv-import.ts --db sqlite --cpu-prof            # also: a V8 profile of the import (bench/cpu-profile.ts)
//
// Options: --db sqlite,postgres (either or both), --rows N (default 1,000,000), --database-url URL
// (else DATABASE_URL or TEST_DATABASE_URL; without one PostgreSQL is skipped), --node-args "…"
// (Node flags for the measured processes), --cpu-prof, --keep (leave the database and the file),
// --floor-rows N (default 100,000; 0: no floor).
//
// Each database is fresh: SQLite in a new data directory under os.tmpdir() with the app's own
// settings (WAL, synchronous = FULL: durable commits), PostgreSQL in a new schema of the given
// database (its default synchronous_commit: durable commits), dropped at the end. Both are
// migrated and seeded with the reference data and the bench owner (prepareDatabase, no demo
// figures). The file (not timed) has the budgets export's columns (Company, Department, Category,
// Amount, Period, Start Date, End Date, Status, Description) and names the seeded companies,
// departments and categories, with varied amounts, periods, dates and statuses, and some
// descriptions that need quoting. The dry run and the import then each run in a child process
// (this file with --step) as the owner, timed around the one importCsv call; RSS and the V8 heap
// used are sampled every 250 ms and at every progress call (5,000 rows), and the peaks up to
// 100k rows read and up to the end are reported, with the process's maxRSS. After the import the
// bench checks that budgets, audit_logs and data_versions each hold N more rows, and measures the
// floor: the last --floor-rows rows it wrote stored again by bare INSERTs, with the triggers and
// without (bench/insert-floor.ts). Results: a table on stdout and JSON in bench/results/.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createDatabase, type DatabaseHandle } from '../db/client.ts';
import { PERIODS, STATUSES } from '../db/types.ts';
import { prepareDatabase } from '../app/features/system/bootstrap.server.ts';
import { budgets } from '../app/features/resources.ts';
import { findUserById } from '../app/features/users/user-queries.server.ts';
import type { Db, ServiceContext } from '../app/platform/context.ts';
import { createRuntime } from '../app/platform/runtime.ts';
import { importCsv, PROGRESS_EVERY } from '../app/platform/resources/import/csv-import.server.ts';
import { argValue, BENCH_OWNER_EMAIL, BENCH_OWNER_PASSWORD, numberArg } from './constants.ts';
import { insertFloor, type FloorResult } from './insert-floor.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SELF = path.join(root, 'bench', 'csv-import.ts');
const MB = 1024 * 1024;
/** Rows read at which the "early" memory figures are taken. */
const EARLY_ROWS = 100_000;
const SAMPLE_MS = 250;

type Dialect = 'sqlite' | 'postgres';
type Step = 'dry-run' | 'import';

// ---------------------------------------------------------------------------------------------
// Child: one importCsv call, measured from inside. Prints `RESULT {json}` as its last line.
// ---------------------------------------------------------------------------------------------

interface MemoryPeak {
  rssMb: number;
  heapUsedMb: number;
}

interface StepResult {
  step: Step;
  seconds: number;
  rows: number;
  valid: number;
  invalid: number;
  created: number;
  written: boolean;
  firstErrors: { line: number; field: string; message: string }[];
  /** RSS and heap used after start-up and opening the database, before the call (MB). */
  start: MemoryPeak;
  /** The largest samples while the first 100k rows were read, and over the whole call (MB). */
  peakEarly: MemoryPeak;
  peakEnd: MemoryPeak;
  /** The process's peak RSS (getrusage maxRSS, MB). */
  maxRssMb: number;
  /** RSS (MB) at every tenth of the rows read. */
  rssAtTenthsMb: number[];
  /** CPU seconds of this process (user + system) during the call. */
  cpuSeconds: number;
  samples: number;
}

function openDatabase(dialect: Dialect, location: string): DatabaseHandle {
  return dialect === 'sqlite' ? createDatabase({ dataDir: location }) : createDatabase({ url: location });
}

async function ownerContext(db: Db): Promise<ServiceContext> {
  const { id } = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', BENCH_OWNER_EMAIL)
    .executeTakeFirstOrThrow();
  const user = await findUserById(db, id);
  if (!user) throw new Error(`no user ${id}`);
  return { db, actor: { kind: 'user', user }, meta: { ip: '127.0.0.1', userAgent: 'bench' }, runtime: createRuntime() };
}

async function runStep(argv: string[]): Promise<void> {
  const step = argValue(argv, 'step') as Step;
  const dialect = argValue(argv, 'dialect') as Dialect;
  const location = argValue(argv, 'location')!;
  const file = argValue(argv, 'file')!;
  const total = numberArg(argv, 'rows', 0);
  const handle = openDatabase(dialect, location);
  const ctx = await ownerContext(handle.db);

  const memory = (): MemoryPeak => {
    const m = process.memoryUsage();
    return { rssMb: m.rss / MB, heapUsedMb: m.heapUsed / MB };
  };
  const start = memory();
  const peakEarly: MemoryPeak = { ...start };
  const peakEnd: MemoryPeak = { ...start };
  const rssAtTenthsMb: number[] = [];
  let rowsRead = 0;
  let samples = 0;
  const sample = () => {
    const m = memory();
    samples++;
    for (const peak of rowsRead <= EARLY_ROWS ? [peakEarly, peakEnd] : [peakEnd]) {
      peak.rssMb = Math.max(peak.rssMb, m.rssMb);
      peak.heapUsedMb = Math.max(peak.heapUsedMb, m.heapUsedMb);
    }
    return m;
  };
  const timer = setInterval(sample, SAMPLE_MS);
  const tenth = Math.max(PROGRESS_EVERY, Math.round(total / 10 / PROGRESS_EVERY) * PROGRESS_EVERY);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const outcome = await importCsv(ctx, budgets, fs.createReadStream(file), {
    mode: 'all',
    reason: 'bench',
    dryRun: step === 'dry-run',
    onProgress: (rows) => {
      // The sample belongs to the rows read before this call.
      const m = sample();
      rowsRead = rows;
      if (rows % tenth === 0 && rows > 0) rssAtTenthsMb.push(m.rssMb);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  clearInterval(timer);
  sample();
  await handle.close();
  const result: StepResult = {
    step,
    seconds,
    rows: outcome.rows,
    valid: outcome.valid,
    invalid: outcome.invalid,
    created: outcome.created,
    written: outcome.written,
    firstErrors: outcome.errors.slice(0, 5),
    start,
    peakEarly,
    peakEnd,
    maxRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
    rssAtTenthsMb,
    cpuSeconds: (used.user + used.system) / 1e6,
    samples,
  };
  console.log(`RESULT ${JSON.stringify(result)}`);
}

// ---------------------------------------------------------------------------------------------
// Parent: the database, the file, the two steps, the checks and the report.
// ---------------------------------------------------------------------------------------------

interface Options {
  dialects: Dialect[];
  rows: number;
  databaseUrl?: string;
  nodeArgs: string[];
  cpuProf: boolean;
  keep: boolean;
  /** --only dry-run: the dry run alone (the import's figures and the rows check are left out). */
  dryRunOnly: boolean;
  /** Rows of the import stored again by bare INSERTs (bench/insert-floor.ts); 0: none. */
  floorRows: number;
}

function options(argv: string[]): Options {
  const dialects = (argValue(argv, 'db') ?? 'sqlite,postgres').split(',') as Dialect[];
  for (const d of dialects)
    if (d !== 'sqlite' && d !== 'postgres') throw new Error(`--db: sqlite or postgres, not ${d}`);
  return {
    dialects,
    rows: numberArg(argv, 'rows', 1_000_000),
    databaseUrl: argValue(argv, 'database-url') ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL,
    nodeArgs: (argValue(argv, 'node-args') ?? '').split(' ').filter(Boolean),
    cpuProf: argv.includes('--cpu-prof'),
    keep: argv.includes('--keep'),
    dryRunOnly: argValue(argv, 'only') === 'dry-run',
    floorRows: numberArg(argv, 'floor-rows', 100_000),
  };
}

/** A CSV cell as the export writes it: quoted when it holds a comma, a quote or a line break. */
function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

interface Reference {
  company: string;
  department: string;
  category: string;
}

/** The seeded categories with their company and department (any department for one filed under none). */
async function references(db: Db): Promise<Reference[]> {
  const departments = (await db.selectFrom('departments').select('name').orderBy('id').execute()).map((d) => d.name);
  const categories = await db
    .selectFrom('expenseCategories as ec')
    .innerJoin('companies as c', 'c.id', 'ec.companyId')
    .leftJoin('departments as d', 'd.id', 'ec.departmentId')
    .select(['c.name as company', 'd.name as department', 'ec.name as category'])
    .orderBy('ec.id')
    .execute();
  const out: Reference[] = [];
  for (const c of categories) {
    if (c.department) out.push({ company: c.company, department: c.department, category: c.category });
    else for (const department of departments) out.push({ company: c.company, department, category: c.category });
  }
  if (out.length === 0) throw new Error('no expense categories in the seeded database');
  return out;
}

const HEADERS = [
  'Company',
  'Department',
  'Category',
  'Amount',
  'Period',
  'Start Date',
  'End Date',
  'Status',
  'Description',
];

/** Writes the file: N budget rows over the given references (seeded pseudo-random, the same each run). */
function writeCsv(file: string, rows: number, refs: Reference[]): number {
  let seed = 0x2545f491;
  const random = () => {
    // xorshift32: the same file every run.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x100000000;
  };
  const months: Record<string, number> = { monthly: 1, quarterly: 3, annual: 12 };
  const day0 = Date.UTC(2020, 0, 1);
  const fd = fs.openSync(file, 'w');
  let chunk = `${HEADERS.join(',')}\r\n`;
  for (let i = 1; i <= rows; i++) {
    const ref = refs[Math.floor(random() * refs.length)];
    const period = PERIODS[Math.floor(random() * PERIODS.length)];
    const status = STATUSES[Math.floor(random() * STATUSES.length)];
    const amount = (Math.floor(random() * 25_000_000) + 100) / 100;
    const start = new Date(day0 + Math.floor(random() * 2500) * 86_400_000);
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + (months[period] ?? 1));
    end.setUTCDate(end.getUTCDate() - 1);
    const description =
      i % 10 === 0
        ? `Budget line ${i}, "bench" import`
        : i % 3 === 0
          ? ''
          : `Budget line ${i} for ${ref.category.toLowerCase()}`;
    chunk += `${cell(ref.company)},${cell(ref.department)},${cell(ref.category)},${amount.toFixed(2)},${period},${start.toISOString().slice(0, 10)},${end.toISOString().slice(0, 10)},${status},${cell(description)}\r\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(fd, chunk);
      chunk = '';
    }
  }
  fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  return fs.statSync(file).size;
}

interface Counts {
  budgets: number;
  auditLogs: number;
  dataVersions: number;
}

async function counts(db: Db): Promise<Counts> {
  const count = async (table: 'budgets' | 'auditLogs' | 'dataVersions') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    budgets: await count('budgets'),
    auditLogs: await count('auditLogs'),
    dataVersions: await count('dataVersions'),
  };
}

function runChild(
  opts: Options,
  step: Step,
  dialect: Dialect,
  location: string,
  file: string,
  extraNodeArgs: string[] = [],
): Promise<StepResult> {
  const args = [
    ...opts.nodeArgs,
    ...extraNodeArgs,
    SELF,
    '--step',
    step,
    '--dialect',
    dialect,
    '--location',
    location,
    '--file',
    file,
    '--rows',
    String(opts.rows),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out
        .trim()
        .split('\n')
        .findLast((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`${step} failed (${code}):\n${out}`));
      else resolve(JSON.parse(line.slice('RESULT '.length)) as StepResult);
    });
  });
}

function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

async function admin(url: string, text: string): Promise<void> {
  const u = new URL(url);
  u.searchParams.delete('options');
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

interface DialectReport {
  dialect: Dialect;
  location: string;
  fileMb: number;
  generateSeconds: number;
  references: number;
  dryRun: StepResult;
  import?: StepResult;
  before: Counts;
  after?: Counts;
  checks?: { budgets: boolean; auditLogs: boolean; dataVersions: boolean };
  cpuProfileDir?: string;
  floor?: FloorResult;
}

async function benchDialect(opts: Options, dialect: Dialect, work: string): Promise<DialectReport> {
  let location: string;
  let schema: string | undefined;
  if (dialect === 'sqlite') {
    location = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-import-bench-'));
  } else {
    schema = `finhub_bench_import_${crypto.randomBytes(4).toString('hex')}`;
    await admin(opts.databaseUrl!, `create schema ${schema}`);
    location = withSearchPath(opts.databaseUrl!, schema);
  }
  const label = dialect === 'sqlite' ? location : `schema ${schema}`;
  console.log(`\n${dialect}: ${label}`);
  const handle = openDatabase(dialect, location);
  try {
    await prepareDatabase(handle, {
      seedDemo: false,
      owner: { email: BENCH_OWNER_EMAIL, password: BENCH_OWNER_PASSWORD },
    });
    const refs = await references(handle.db);
    const file = path.join(work, `budgets-${dialect}-${opts.rows}.csv`);
    let t = performance.now();
    const bytes = writeCsv(file, opts.rows, refs);
    const generateSeconds = (performance.now() - t) / 1000;
    console.log(
      `  file: ${opts.rows.toLocaleString('en-US')} rows, ${(bytes / MB).toFixed(1)} MB over ${refs.length} company/department/category triples (${generateSeconds.toFixed(1)} s, not timed)`,
    );
    const before = await counts(handle.db);
    t = performance.now();
    const dryRun = await runChild(opts, 'dry-run', dialect, location, file);
    console.log(
      `  dry run: ${dryRun.seconds.toFixed(2)} s, ${rate(dryRun.rows, dryRun.seconds)} rows/s, ${dryRun.valid} valid, ${dryRun.invalid} refused`,
    );
    if (dryRun.invalid > 0) console.log(`  first errors: ${JSON.stringify(dryRun.firstErrors)}`);
    if (opts.dryRunOnly)
      return { dialect, location: label, fileMb: bytes / MB, generateSeconds, references: refs.length, dryRun, before };
    const cpuProfileDir = opts.cpuProf
      ? path.join(root, 'bench', 'results', `cpu-prof-csv-import-${dialect}-${stamp()}`)
      : undefined;
    const imported = await runChild(
      opts,
      'import',
      dialect,
      location,
      file,
      cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir] : [],
    );
    console.log(
      `  import: ${imported.seconds.toFixed(2)} s, ${rate(imported.rows, imported.seconds)} rows/s, ${imported.created} created, written ${imported.written}`,
    );
    if (cpuProfileDir)
      console.log(`  profile: ${cpuProfileDir} (npx node bench/cpu-profile.ts ${path.relative(root, cpuProfileDir)})`);
    const after = await counts(handle.db);
    const checks = {
      budgets: after.budgets - before.budgets === opts.rows,
      auditLogs: after.auditLogs - before.auditLogs === opts.rows,
      dataVersions: after.dataVersions - before.dataVersions === opts.rows,
    };
    console.log(
      `  check: budgets +${(after.budgets - before.budgets).toLocaleString('en-US')} (${checks.budgets ? 'ok' : 'WRONG'}), ` +
        `audit_logs +${(after.auditLogs - before.auditLogs).toLocaleString('en-US')} (${checks.auditLogs ? 'ok' : 'WRONG'}), ` +
        `data_versions +${(after.dataVersions - before.dataVersions).toLocaleString('en-US')} (${checks.dataVersions ? 'ok' : 'WRONG'})`,
    );
    if (!opts.keep) fs.rmSync(file, { force: true });
    let floor: FloorResult | undefined;
    if (opts.floorRows > 0) {
      floor = await insertFloor(
        dialect,
        dialect === 'sqlite' ? path.join(location, 'finhub.db') : location,
        before.budgets,
        Math.min(opts.floorRows, opts.rows),
      );
      console.log(
        `  floor: the last ${floor.rows.toLocaleString('en-US')} rows stored again by bare INSERTs: ${rate(floor.withTriggers, 1)} rows/s with the triggers, ${rate(floor.withoutTriggers, 1)} without`,
      );
    }
    return {
      dialect,
      location: label,
      fileMb: bytes / MB,
      generateSeconds,
      references: refs.length,
      dryRun,
      import: imported,
      before,
      after,
      checks,
      cpuProfileDir,
      floor,
    };
  } finally {
    await handle.close();
    if (!opts.keep) {
      if (dialect === 'sqlite') fs.rmSync(location, { recursive: true, force: true });
      else await admin(opts.databaseUrl!, `drop schema if exists ${schema} cascade`);
    } else console.log(`  kept: ${label}`);
  }
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);
const rate = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en-US');
const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
const GOALS: Record<Dialect, number> = { sqlite: 50_000, postgres: 20_000 };

async function main(argv: string[]): Promise<void> {
  const opts = options(argv);
  if (opts.dialects.includes('postgres') && !opts.databaseUrl) {
    console.log('PostgreSQL skipped: no --database-url, DATABASE_URL or TEST_DATABASE_URL');
    opts.dialects = opts.dialects.filter((d) => d !== 'postgres');
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-import-bench-file-'));
  const reports: DialectReport[] = [];
  try {
    for (const dialect of opts.dialects) reports.push(await benchDialect(opts, dialect, work));
  } finally {
    if (!opts.keep) fs.rmSync(work, { recursive: true, force: true });
  }

  console.log(
    `\n${opts.rows.toLocaleString('en-US')} budget rows, ${os.cpus().length} cores, Node ${process.version}${opts.nodeArgs.length ? `, steps run with node ${opts.nodeArgs.join(' ')}` : ''}\n`,
  );
  console.log(
    '| dialect | step | seconds | rows/s | CPU s | peak RSS MB ≤ 100k rows → end | heap used MB ≤ 100k → end | maxRSS MB | RSS at each tenth MB |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | --- | --- | ---: | --- |');
  for (const r of reports) {
    for (const s of r.import ? [r.dryRun, r.import] : [r.dryRun])
      console.log(
        `| ${r.dialect} | ${s.step} | ${fmt(s.seconds, 2)} | ${rate(s.rows, s.seconds)} | ${fmt(s.cpuSeconds, 1)} | ${fmt(s.peakEarly.rssMb)} → ${fmt(s.peakEnd.rssMb)} | ${fmt(s.peakEarly.heapUsedMb)} → ${fmt(s.peakEnd.heapUsedMb)} | ${fmt(s.maxRssMb)} | ${s.rssAtTenthsMb.map((m) => fmt(m)).join(' ')} |`,
      );
  }
  console.log('');
  for (const r of reports) {
    if (!r.import || !r.checks) {
      console.log(
        `${r.dialect}: dry run ${rate(r.dryRun.rows, r.dryRun.seconds)} rows/s; peak RSS ${fmt(r.dryRun.peakEarly.rssMb)} MB at ≤ 100k rows, ${fmt(r.dryRun.peakEnd.rssMb)} MB at the end`,
      );
      continue;
    }
    const perSecond = r.import.rows / r.import.seconds;
    const growth = r.import.peakEnd.rssMb - r.import.peakEarly.rssMb;
    console.log(
      `${r.dialect}: import ${rate(r.import.rows, r.import.seconds)} rows/s (goal ≥ ${GOALS[r.dialect].toLocaleString('en-US')}: ${perSecond >= GOALS[r.dialect] ? 'met' : 'NOT met'}), ` +
        `dry run ${rate(r.dryRun.rows, r.dryRun.seconds)} rows/s; import peak RSS ${fmt(r.import.peakEarly.rssMb)} MB at ≤ 100k rows, ${fmt(r.import.peakEnd.rssMb)} MB at the end (${growth >= 0 ? '+' : ''}${fmt(growth)} MB); ` +
        `rows check ${r.checks.budgets && r.checks.auditLogs && r.checks.dataVersions ? 'ok' : 'WRONG'}` +
        (r.floor
          ? `; floor ${rate(r.floor.withTriggers, 1)} rows/s with triggers, ${rate(r.floor.withoutTriggers, 1)} without`
          : ''),
    );
  }
  const resultsDir = path.join(root, 'bench', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const report = path.join(resultsDir, `csv-import-${stamp()}.json`);
  fs.writeFileSync(
    report,
    JSON.stringify(
      { rows: opts.rows, nodeArgs: opts.nodeArgs, cores: os.cpus().length, node: process.version, results: reports },
      null,
      2,
    ),
  );
  console.log(`\nreport: ${report}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  (argValue(argv, 'step') ? runStep(argv) : main(argv)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
