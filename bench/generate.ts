// `finhub db generate` speed: the bin as a user runs it, on a fresh SQLite data directory (or a
// PostgreSQL database with --database-url), N expenses plus the proportional budgets and
// revenue (generate migrates and seeds an empty database itself). Prints the wall time and
// the generator's own rows/s (all tables), and exits 1 below the goal.
// This used to be a timed assertion in cli/cli.test.ts; timings belong here, on a quiet box.
//
//   npx node bench/generate.ts [--rows 100000] [--repeat 3] [--min-rows-per-second 100000] [--database-url URL]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { argValue, numberArg } from './constants.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const argv = process.argv.slice(2);
const rows = numberArg(argv, 'rows', 100_000);
const repeat = Math.max(1, numberArg(argv, 'repeat', 3));
const goal = numberArg(argv, 'min-rows-per-second', 100_000);
const databaseUrl = argValue(argv, 'database-url');
const FINHUB = path.join(root, 'bin', 'finhub.mjs');

interface Run {
  wallSeconds: number;
  generatorSeconds: number;
  rowsPerSecond: number;
}

function once(): Run {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-generate-bench-'));
  // A fresh schema per run on PostgreSQL, like the tests do.
  const schema = `bench_generate_${process.pid}_${Date.now().toString(36)}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
    DATA_DIR: dataDir,
  };
  delete env.DATABASE_URL;
  const psql = (statement: string) => spawnSync('psql', [databaseUrl!, '-qc', statement], { stdio: 'inherit' });
  if (databaseUrl) {
    psql(`create schema ${schema}`);
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.toString();
  }
  try {
    const started = performance.now();
    const result = spawnSync(FINHUB, ['--json', 'db', 'generate', '--rows', String(rows)], {
      env,
      cwd: root,
      encoding: 'utf8',
    });
    const wallSeconds = (performance.now() - started) / 1000;
    if (result.status !== 0) throw new Error(`finhub db generate failed:\n${result.stderr}`);
    const body = JSON.parse(result.stdout) as {
      seconds: number;
      rowsPerSecond: number;
      inserted: Record<string, number>;
    };
    if (body.inserted.actual_expenses !== rows)
      throw new Error(`generated ${body.inserted.actual_expenses} expenses, asked for ${rows}`);
    return { wallSeconds, generatorSeconds: body.seconds, rowsPerSecond: body.rowsPerSecond };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) psql(`drop schema if exists ${schema} cascade`);
  }
}

const runs: Run[] = [];
for (let i = 0; i < repeat; i++) {
  const run = once();
  runs.push(run);
  console.log(
    `run ${i + 1}: ${run.wallSeconds.toFixed(2)} s wall (process start included), generator ${run.generatorSeconds.toFixed(2)} s, ${Math.round(run.rowsPerSecond).toLocaleString('en-US')} rows/s`,
  );
}
const median = [...runs].sort((a, b) => a.rowsPerSecond - b.rowsPerSecond)[Math.floor(runs.length / 2)];
const met = median.rowsPerSecond >= goal;
console.log(
  `${rows.toLocaleString('en-US')} rows on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}: median ${Math.round(median.rowsPerSecond).toLocaleString('en-US')} rows/s, ${median.wallSeconds.toFixed(2)} s wall; goal ≥ ${goal.toLocaleString('en-US')} rows/s: ${met ? 'met' : 'NOT met'}`,
);
process.exitCode = met ? 0 : 1;
