// The CSV export benchmark: `finhub export actual_expenses` against `sqlite3 -csv` on the same
// SQLite file, in the same run, at 1M and 3M generated rows: wall time, time ratio and peak RSS.
// The setup is the real one unless told otherwise: the list bench's data (bench/list-data.ts: demo
// data plus `finhub db generate --rows N`) with the app server and its job engine running beside
// the export, idle, as on a machine where people use the app; --no-app leaves it out, and
// --bare-data takes the earlier data (`finhub db generate --expenses-only`, one directory per size).
//
//   npx node bench/export.ts [--rows 1000000,3000000] [--repeat 3] [--no-app] [--bare-data [--data-dir /tmp/finhub-export-bench]]
//   npx node bench/export.ts --database-url 'postgres://…?options=-c%20search_path%3Dschema' [--repeat 3] [--finhub bin/finhub.mjs,/other/checkout/bin/finhub.mjs]
//
// With --database-url (PostgreSQL): the rows already in that database (a schema holding N actual
// expenses, e.g. from `finhub db generate --expenses-only`), `psql -c "\copy (the same export's
// query) to stdout csv"` against `finhub export actual_expenses --out FILE`, run alternately
// (psql, finhub, psql, finhub, …) so both see the same load; each finhub bin given is measured
// in the same rotation (the current checkout's and an older one's, for a before/after).
//
// Two sqlite3 baselines: `select *` (the table as stored: ids, cents, no joins) and the same
// export finhub writes (company, department and category names, money as decimals, the list's
// order), so the ratio can be read against either. Wall time, CPU time (user + system, which
// other work on the machine moves less) and peak RSS come from /usr/bin/time (Debian package
// `time`); finhub's growth is its peak minus the peak of exporting the tiny companies table (the
// process's start-up size); peak RSS varies with GC timing, so the median and the largest of the
// runs are both reported.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { argValue, numberArg, SERVER_NODE_FLAGS } from './constants.ts';
import { listBenchDatabase } from './list-data.ts';
import { freePort, stopChild, waitForHealth } from './processes.ts';
import { prepareBenchData } from './screens-data.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const argv = process.argv.slice(2);
const sizes = (argValue(argv, 'rows') ?? '1000000,3000000').split(',').map((n) => Number(n.replaceAll('_', '')));
const benchDir = path.resolve(argValue(argv, 'data-dir') ?? path.join(os.tmpdir(), 'finhub-export-bench'));
const repeat = numberArg(argv, 'repeat', 3);
const bareData = argv.includes('--bare-data');
const withApp = !argv.includes('--no-app');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-export-out-'));

for (const tool of ['/usr/bin/time', 'sqlite3']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    console.error(`${tool} is missing: apt-get install -y ${tool === 'sqlite3' ? 'sqlite3' : 'time'}`);
    process.exit(1);
  }
}

// The finhub bin as a user runs it (its shebang and flags), with this Node first on PATH.
const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` };
delete env.DATABASE_URL;
const FINHUB = path.join(root, 'bin', 'finhub.mjs');

const SAME_AS_FINHUB = `
  select t.id, c.name, d.name, ec.name, printf('%.2f', t.amount_cents / 100.0), t.expense_date,
         t.description, t.vendor, t.receipt_number, t.created_at, t.updated_at
  from actual_expenses t
  left join companies c on c.id = t.company_id
  left join departments d on d.id = t.department_id
  left join expense_categories ec on ec.id = t.category_id
  order by t.expense_date desc, t.id desc`;

interface Measure {
  seconds: number;
  /** User + system CPU seconds. */
  cpuSeconds: number;
  peakRssMb: number;
  /** With repeats: the largest peak of the runs (peakRssMb is their median). */
  maxPeakRssMb?: number;
}

/** Runs a command with stdout to `out`, under /usr/bin/time: wall seconds and peak RSS. */
function measure(command: string[], out: string, extraEnv: Record<string, string> = {}): Measure {
  const timing = path.join(outDir, 'time.txt');
  const fd = fs.openSync(out, 'w');
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M %U %S', '-o', timing, ...command], {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', fd, 'pipe'],
    cwd: root,
  });
  fs.closeSync(fd);
  if (result.status !== 0) throw new Error(`${command.join(' ')} failed (${result.status}):\n${result.stderr}`);
  const [seconds, kb, user, system] = fs.readFileSync(timing, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  return { seconds, cpuSeconds: user + system, peakRssMb: kb / 1024 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function summary(runs: Measure[]): Measure {
  return {
    seconds: median(runs.map((r) => r.seconds)),
    cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
    peakRssMb: median(runs.map((r) => r.peakRssMb)),
    maxPeakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
  };
}

/** The commands in turn, `repeat` rounds, so that a change of the machine's load falls on all of them. */
function rounds(commands: [string[], string][]): Measure[][] {
  const runs: Measure[][] = commands.map(() => []);
  for (let round = 0; round < repeat; round++)
    commands.forEach(([command, out], i) => runs[i].push(measure(command, out)));
  return runs;
}

function countRows(dbFile: string): number {
  if (!fs.existsSync(dbFile)) return 0;
  const result = spawnSync('sqlite3', [dbFile, 'select count(*) from actual_expenses'], { encoding: 'utf8' });
  return result.status === 0 ? Number(result.stdout.trim()) : 0;
}

function lines(file: string): number {
  const result = spawnSync('wc', ['-l', file], { encoding: 'utf8' });
  return Number(result.stdout.trim().split(' ')[0]);
}

// The same export's columns on PostgreSQL, as the database's own CSV (psql's baseline).
const SAME_AS_FINHUB_PG = `
  select t.id, c.name, d.name, ec.name, round(t.amount_cents / 100.0, 2), t.expense_date,
         t.description, t.vendor, t.receipt_number, t.created_at, t.updated_at
  from actual_expenses t
  left join companies c on c.id = t.company_id
  left join departments d on d.id = t.department_id
  left join expense_categories ec on ec.id = t.category_id
  order by t.expense_date desc, t.id desc`
  .replace(/\s+/g, ' ')
  .trim();

const databaseUrl = argValue(argv, 'database-url');
if (databaseUrl) {
  if (spawnSync('sh', ['-c', 'command -v psql']).status !== 0) {
    console.error('psql is missing: apt-get install -y postgresql-client');
    process.exit(1);
  }
  const bins = (argValue(argv, 'finhub') ?? FINHUB).split(',').map((b) => path.resolve(b));
  const count = Number(
    spawnSync('psql', [databaseUrl, '-Atc', 'select count(*) from actual_expenses'], {
      encoding: 'utf8',
    }).stdout.trim(),
  );
  const pgEnv = { DATABASE_URL: databaseUrl };
  const psqlCommand = ['psql', databaseUrl, '-c', `\\copy (${SAME_AS_FINHUB_PG}) to stdout csv`];
  const timed = measure;
  // Warm the caches once.
  timed(psqlCommand, path.join(outDir, 'warm.csv'));
  const psqlRuns: Measure[] = [];
  const finhubRuns: Measure[][] = bins.map(() => []);
  for (let run = 0; run < repeat; run++) {
    psqlRuns.push(timed(psqlCommand, path.join(outDir, 'psql.csv')));
    console.log(`run ${run + 1}: psql ${psqlRuns.at(-1)!.seconds.toFixed(2)} s`);
    bins.forEach((bin, i) => {
      const file = path.join(outDir, `finhub-${i}.csv`);
      finhubRuns[i].push(
        timed([bin, 'export', 'actual_expenses', '--out', file], path.join(outDir, 'finhub-stdout.txt'), pgEnv),
      );
      console.log(
        `run ${run + 1}: ${bin} ${finhubRuns[i].at(-1)!.seconds.toFixed(2)} s, ${finhubRuns[i].at(-1)!.peakRssMb.toFixed(0)} MB`,
      );
    });
  }
  const psqlSeconds = median(psqlRuns.map((r) => r.seconds));
  const report = {
    database: 'postgres',
    rows: count,
    repeat,
    cores: os.cpus().length,
    psql: { seconds: psqlSeconds, runs: psqlRuns.map((r) => r.seconds) },
    finhub: bins.map((bin, i) => ({
      bin,
      seconds: median(finhubRuns[i].map((r) => r.seconds)),
      runs: finhubRuns[i].map((r) => r.seconds),
      ratio: median(finhubRuns[i].map((r) => r.seconds)) / psqlSeconds,
      // Each run against the psql run just before it.
      pairedRatios: finhubRuns[i].map((r, k) => r.seconds / psqlRuns[k].seconds),
      peakRssMb: median(finhubRuns[i].map((r) => r.peakRssMb)),
      maxPeakRssMb: Math.max(...finhubRuns[i].map((r) => r.peakRssMb)),
    })),
  };
  const files = bins.map((_, i) => fs.readFileSync(path.join(outDir, `finhub-${i}.csv`)));
  for (let i = 1; i < files.length; i++)
    if (!files[i].equals(files[0])) console.log(`note: ${bins[i]} wrote different bytes from ${bins[0]}`);
  console.log(`\n${count.toLocaleString('en-US')} rows on PostgreSQL, ${repeat} alternated runs (median):`);
  console.log('| command | runs | median | ratio to psql (median; per run) | peak RSS (median, largest) |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  console.log(
    `| psql \\copy (same columns) | ${psqlRuns.map((r) => r.seconds.toFixed(2)).join(', ')} s | ${psqlSeconds.toFixed(2)} s | 1 | |`,
  );
  for (const f of report.finhub) {
    console.log(
      `| ${path.relative(root, f.bin) || f.bin} | ${f.runs.map((r) => r.toFixed(2)).join(', ')} s | ${f.seconds.toFixed(2)} s | ` +
        `${f.ratio.toFixed(2)}×; ${f.pairedRatios.map((r) => r.toFixed(2)).join(', ')} | ${f.peakRssMb.toFixed(0)}, ${f.maxPeakRssMb.toFixed(0)} MB |`,
    );
  }
  const resultsDir = path.join(root, 'bench', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const reportFile = path.join(resultsDir, `export-postgres-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(reportFile, JSON.stringify(report, null, 2));
  console.log(`\nreport: ${reportFile}`);
  fs.rmSync(outDir, { recursive: true, force: true });
  process.exit(0);
}

/** The app server on the data directory, idle, with its job engine (as a user runs it), once its start-up jobs have passed. */
async function startApp(dataDir: string): Promise<ChildProcess> {
  const port = await freePort();
  // Its output to a file: this process blocks in spawnSync while the app runs, so a pipe could fill.
  const logFd = fs.openSync(path.join(outDir, 'app.log'), 'a');
  const app = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'bench/app-server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      NODE_ENV: 'production',
      EMBEDDED_JOBS: '1',
    },
    stdio: ['ignore', logFd, logFd],
  });
  await waitForHealth(`http://127.0.0.1:${port}`, app);
  await new Promise((resolve) => setTimeout(resolve, 20_000));
  return app;
}

const results = [];
for (const rows of sizes.sort((a, b) => a - b)) {
  let dataDir = path.join(benchDir, String(rows));
  if (bareData) {
    const dbFile = path.join(dataDir, 'finhub.db');
    env.DATA_DIR = dataDir;
    const have = countRows(dbFile);
    if (have < rows) {
      console.log(`generating ${(rows - have).toLocaleString('en-US')} rows in ${dataDir} …`);
      const generated = spawnSync(FINHUB, ['db', 'generate', '--rows', String(rows - have), '--expenses-only'], {
        env,
        stdio: 'inherit',
        cwd: root,
      });
      if (generated.status !== 0) process.exit(1);
    } else if (have > rows) {
      console.log(
        `note: ${dbFile} holds ${have.toLocaleString('en-US')} rows (asked for ${rows.toLocaleString('en-US')}); measuring all of them`,
      );
    }
  } else {
    const target = listBenchDatabase('sqlite', rows, '');
    await prepareBenchData(target, '', (line) => console.log(line));
    dataDir = target.dataDir;
    env.DATA_DIR = dataDir;
  }
  const dbFile = path.join(dataDir, 'finhub.db');
  const app = withApp ? await startApp(dataDir) : null;
  if (app)
    console.log(`the app server runs beside the export (pid ${app.pid}, embedded jobs on, start-up jobs passed)`);
  const count = countRows(dbFile);
  // Warm the page cache once, so the first measured tool does not pay for the disk alone.
  measure(['sqlite3', '-csv', dbFile, SAME_AS_FINHUB], path.join(outDir, 'warm.csv'));

  const [rawRuns, sameRuns, finhubRuns, baselineRuns] = rounds([
    [['sqlite3', '-csv', '-header', dbFile, 'select * from actual_expenses'], path.join(outDir, 'sqlite-raw.csv')],
    [['sqlite3', '-csv', '-header', dbFile, SAME_AS_FINHUB], path.join(outDir, 'sqlite-same.csv')],
    [[FINHUB, 'export', 'actual_expenses'], path.join(outDir, 'finhub.csv')],
    [[FINHUB, 'export', 'companies'], path.join(outDir, 'companies.csv')],
  ]);
  const [raw, same, finhub, baseline] = [rawRuns, sameRuns, finhubRuns, baselineRuns].map(summary);
  /** Each round's finhub against the sqlite3 run just before it. */
  const roundRatios = finhubRuns.map((r, i) => r.seconds / sameRuns[i].seconds);
  if (app) await stopChild(app);
  const finhubLines = lines(path.join(outDir, 'finhub.csv'));
  const sameLines = lines(path.join(outDir, 'sqlite-same.csv'));
  if (finhubLines !== sameLines) throw new Error(`finhub wrote ${finhubLines} lines, sqlite3 ${sameLines}`);

  const row = {
    rows: count,
    sqliteRawSeconds: raw.seconds,
    sqliteSameSeconds: same.seconds,
    finhubSeconds: finhub.seconds,
    ratioToRaw: finhub.seconds / raw.seconds,
    ratioToSame: finhub.seconds / same.seconds,
    /** CPU time (user + system) of finhub over sqlite3's for the same export. */
    cpuRatioToSame: finhub.cpuSeconds / same.cpuSeconds,
    roundRatios,
    setup: bareData ? 'expenses only' : 'demo data plus finhub db generate',
    appBeside: withApp,
    finhubPeakRssMb: finhub.peakRssMb,
    finhubMaxPeakRssMb: finhub.maxPeakRssMb!,
    finhubStartRssMb: baseline.peakRssMb,
    /** The bin's start-up: a whole export of the 4-row companies table. */
    finhubStartSeconds: baseline.seconds,
    finhubRssGrowthMb: finhub.peakRssMb - baseline.peakRssMb,
    sqlitePeakRssMb: Math.max(raw.peakRssMb, same.peakRssMb),
    csvMb: fs.statSync(path.join(outDir, 'finhub.csv')).size / 1024 / 1024,
  };
  results.push(row);
  console.log(
    `${count.toLocaleString('en-US')} rows: sqlite3 select * ${raw.seconds.toFixed(2)} s, sqlite3 same export ${same.seconds.toFixed(2)} s, ` +
      `finhub ${finhub.seconds.toFixed(2)} s (${row.ratioToRaw.toFixed(2)}× / ${row.ratioToSame.toFixed(2)}×, rounds ${roundRatios.map((r) => r.toFixed(2)).join(', ')}; CPU ${finhub.cpuSeconds.toFixed(2)} s against ${same.cpuSeconds.toFixed(2)} s, ${row.cpuRatioToSame.toFixed(2)}×), ` +
      `finhub peak RSS ${finhub.peakRssMb.toFixed(0)} MB, largest ${finhub.maxPeakRssMb!.toFixed(0)} MB (start ${baseline.peakRssMb.toFixed(0)} MB in ${baseline.seconds.toFixed(2)} s, growth ${row.finhubRssGrowthMb.toFixed(0)} MB), ${row.csvMb.toFixed(0)} MB of CSV`,
  );
}

console.log(
  `\n${bareData ? 'Generated expenses only' : 'Demo data plus finhub db generate'}, ${withApp ? 'the app server running beside the export' : 'no app running'}:`,
);
console.log(
  '\n| rows | sqlite3 `select *` | sqlite3 same export | finhub export | ratio (raw / same) | CPU ratio (same) | finhub peak RSS (median, largest) | growth over start (median, largest) |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of results) {
  console.log(
    `| ${r.rows.toLocaleString('en-US')} | ${r.sqliteRawSeconds.toFixed(2)} s | ${r.sqliteSameSeconds.toFixed(2)} s | ${r.finhubSeconds.toFixed(2)} s | ` +
      `${r.ratioToRaw.toFixed(2)}× / ${r.ratioToSame.toFixed(2)}× | ${r.cpuRatioToSame.toFixed(2)}× | ${r.finhubPeakRssMb.toFixed(0)}, ${r.finhubMaxPeakRssMb.toFixed(0)} MB | ` +
      `${r.finhubRssGrowthMb.toFixed(0)}, ${(r.finhubMaxPeakRssMb - r.finhubStartRssMb).toFixed(0)} MB |`,
  );
}
const resultsDir = path.join(root, 'bench', 'results');
fs.mkdirSync(resultsDir, { recursive: true });
const report = path.join(resultsDir, `export-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(
  report,
  JSON.stringify(
    {
      repeat,
      cores: os.cpus().length,
      setup: bareData ? 'expenses only' : 'demo data plus finhub db generate',
      appBeside: withApp,
      results,
    },
    null,
    2,
  ),
);
console.log(`\nreport: ${report}`);
fs.rmSync(outDir, { recursive: true, force: true });
