// Every screen, every tab and every GET /api call of the app, one request at a time as the
// signed-in owner, on the real setup: demo data plus `finhub db generate --rows N`, the real
// server (bench/app-server.ts) with its embedded jobs on SQLite, or the web server plus a job
// worker on PostgreSQL. Prints one table per database with the goals met or missed, plus idle
// CPU, memory growth over visits of every screen, and a heavy analysis run in a loop beside
// another user's list page. See bench/README.md ("screens.ts").
//
//   npx node bench/screens.ts [--db sqlite,postgres] [--rows 1000000[,3000000]]
//        [--samples 20] [--warmup 3] [--max-seconds 60] [--idle-seconds 600] [--idle-all]
//        [--heavy-seconds 60] [--heavy-rate 10] [--heavy PATH] [--only REGEX]
//        [--skip memory,heavy,idle] [--database-url postgres://…/postgres] [--rebuild] [--data-only]
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../db/client.ts';
import webpush from 'web-push';
import { argValue, benchEnv, numberArg } from './constants.ts';
import {
  buildIfNeeded,
  freePort,
  gitState,
  machineBusy,
  root,
  signInOwner,
  startChild,
  stopChild,
  waitForHealth,
} from './processes.ts';
import { Client } from './screens-client.ts';
import {
  benchDatabase,
  prepareBenchData,
  sizeLabel,
  type BenchDatabase,
  type DataReport,
  type Dialect,
} from './screens-data.ts';
import {
  heavyLoop,
  idleCpu,
  memoryGrowth,
  sampleTarget,
  slowestAnalysis,
  untilQuiet,
  type Analysis,
} from './screens-measure.ts';
import { databaseTable, missList, runGoals, type RunReport } from './screens-report.ts';
import { listTargets, type Skipped } from './screens-targets.ts';
import { prepareApiSessions } from './sessions.ts';

const argv = process.argv.slice(2);
const list = (name: string, fallback: string) =>
  (argValue(argv, name) ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const options = {
  dialects: list('db', 'sqlite') as Dialect[],
  rows: list('rows', '1000000').map((r) => Number(r.replaceAll('_', ''))),
  samples: numberArg(argv, 'samples', 20),
  warmup: numberArg(argv, 'warmup', 3),
  maxSeconds: numberArg(argv, 'max-seconds', 60),
  idleSeconds: numberArg(argv, 'idle-seconds', 600),
  /** Idle CPU at every size, not only the smallest (the goal is stated at 1M). */
  idleAll: argv.includes('--idle-all'),
  heavySeconds: numberArg(argv, 'heavy-seconds', 60),
  heavyRate: numberArg(argv, 'heavy-rate', 10),
  heavy: argValue(argv, 'heavy'),
  only: argValue(argv, 'only'),
  skip: list('skip', ''),
  /** Seconds to let the server's start-up jobs pass before measuring. */
  settle: numberArg(argv, 'settle', 20),
  adminUrl: argValue(argv, 'database-url') ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  rebuild: argv.includes('--rebuild'),
  /** Only make the data directories and databases (they are kept for later runs). */
  dataOnly: argv.includes('--data-only'),
};
for (const d of options.dialects)
  if (d !== 'sqlite' && d !== 'postgres') throw new Error(`--db: sqlite or postgres, not ${d}`);
for (const r of options.rows) if (!Number.isSafeInteger(r) || r < 0) throw new Error(`--rows: whole numbers, not ${r}`);

const RESULTS_DIR = path.join(root, 'bench', 'results');
const LIST_PATH = '/actual-expenses';
/** The analyses a user can run from a screen or the API: the heavy loop runs the slowest of them. */
const HEAVY_CANDIDATES = /^\/ai-analytics\?tab=(anomalies|predictions|budget)|^\/api\/ai\//;
const HEAVY_POSTS: Analysis[] = [
  { path: '/api/ai/predict-expenses', json: { months: 12 } },
  { path: '/api/ai/detect-anomalies', json: { lookbackDays: 90 } },
];

const log = (line: string) => console.log(line);

/** Node flags of the web server as `npm start` runs it (scripts/bootstrap.mjs). */
const WEB_NODE_FLAGS = ['--liftoff-only'];

/** One push key pair per run, the same for the web server and the worker (as production sets them). */
const VAPID = webpush.generateVAPIDKeys();

function serverEnv(target: BenchDatabase, port: number): Record<string, string | undefined> {
  const env = {
    PORT: String(port),
    DATA_DIR: target.dataDir,
    DATABASE_URL: target.databaseUrl ?? '',
    NODE_ENV: 'production',
    // The bench sends one owner's /api calls by the hundred: counted as ever, never refused.
    API_RATE_LIMIT_PER_MINUTE: '1000000',
    API_RATE_LIMIT_PER_HOUR: '1000000',
    VAPID_PUBLIC_KEY: VAPID.publicKey,
    VAPID_PRIVATE_KEY: VAPID.privateKey,
  };
  // The worker reads its configuration from the environment: the bench's fixed secrets and owner.
  Object.assign(process.env, env);
  return { ...benchEnv(), ...env };
}

async function measure(target: BenchDatabase, report: { runs: RunReport[]; skipped: Skipped[] }): Promise<RunReport> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = serverEnv(target, port);
  const web = startChild('web', [...WEB_NODE_FLAGS, 'bench/app-server.ts'], env);
  // PostgreSQL: the jobs run in a worker process (`npm run worker`), as in production.
  const worker: ChildProcess | null = target.databaseUrl ? startChild('worker', ['worker/main.ts'], env) : null;
  const run: RunReport = {
    dialect: target.dialect,
    rows: target.rows,
    targets: [],
    memory: null,
    heavy: null,
    idle: null,
  };
  const client = new Client(origin);
  try {
    await waitForHealth(origin, web);
    const cookie = await signInOwner(origin);
    log(
      `[run] ${target.dialect} ${sizeLabel(target.rows)}: server up (pid ${web.pid}${worker ? `, worker ${worker.pid}` : ''}); letting start-up jobs pass (at least ${options.settle} s)`,
    );
    await new Promise((resolve) => setTimeout(resolve, options.settle * 1000));
    // Then until the app's processes are quiet: a first job run over the whole book (anomalies,
    // insights) is the start-up's, not the screens'.
    const settled = await untilQuiet({ web: web.pid, ...(worker ? { worker: worker.pid } : {}) }, 600);
    log(
      `[run] quiet after ${Math.round(options.settle + settled.seconds)} s (${(settled.share * 100).toFixed(1)} % of a core over the last 5 s)`,
    );

    const { targets: all, skipped } = await listTargets(client, cookie);
    const only = options.only ? new RegExp(options.only) : null;
    const targets = only ? all.filter((t) => only.test(t.path)) : all;
    report.skipped = skipped;
    log(
      `[run] ${targets.length} targets (${targets.filter((t) => t.kind === 'screen').length} screens, ${targets.filter((t) => t.kind === 'tab').length} tabs, ${targets.filter((t) => t.kind === 'api').length} API calls); left out: ${skipped.map((s) => s.path).join(', ')}`,
    );

    const pages = targets.filter((t) => t.kind !== 'api');
    if (!options.skip.includes('memory')) {
      run.memory = await memoryGrowth(client, pages, cookie, web.pid, 2);
      log(
        `[memory] ${(run.memory.beforeBytes / 2 ** 20).toFixed(0)} MB → ${(run.memory.afterBytes / 2 ** 20).toFixed(0)} MB after visiting ${pages.length} screens and tabs twice`,
      );
    }

    const busy = await machineBusy(1000);
    if (busy > 0.15)
      log(
        `[run] WARNING: ${(busy * 100).toFixed(0)} % of the cores busy with other work before sampling: figures will be high`,
      );
    for (const t of targets) {
      const r = await sampleTarget(client, t, cookie, {
        warmup: options.warmup,
        samples: options.samples,
        maxSeconds: options.maxSeconds,
        minSamples: Math.min(5, options.samples),
        pid: web.pid,
      });
      run.targets.push({
        ...r,
        goal: { medianGoalMs: t.medianGoalMs, p95GoalMs: t.p95GoalMs, htmlGoalBytes: t.htmlGoalBytes },
      });
      const html = t.kind === 'api' ? '' : `, ${(r.bodyBytes / 1024).toFixed(1)} KB`;
      log(
        `  ${t.path.padEnd(60)} ${r.error ? r.error : `median ${r.medianMs.toFixed(1)} ms, p95 ${r.p95Ms.toFixed(1)} ms${html}, CPU ${r.cpuMsPerRequest.toFixed(1)} ms/req${r.capped ? ` (${r.samples} samples: time limit)` : ''}`}`,
      );
    }

    if (!options.skip.includes('heavy')) {
      // The heaviest analysis: the slowest of the analysis screens measured and the analyses
      // posted to the API (their widest windows), each timed again here.
      const candidates: Analysis[] = options.heavy
        ? [{ path: options.heavy }]
        : [
            ...run.targets.filter((t) => HEAVY_CANDIDATES.test(t.path) && !t.error).map((t) => ({ path: t.path })),
            ...HEAVY_POSTS,
          ];
      const heavy = await slowestAnalysis(origin, candidates, cookie);
      if (heavy) {
        // Another user: a viewer of the bench's session pool, signed in just now.
        const handle = createDatabase({ url: target.databaseUrl, dataDir: target.dataDir });
        const [listCookie] = await prepareApiSessions(handle, 1).finally(() => handle.close());
        log(
          `[heavy] the owner runs ${heavy.analysis.json === undefined ? '' : 'POST '}${heavy.analysis.path} (${heavy.medianMs.toFixed(0)} ms, the slowest of ${candidates.length}) in a loop for ${options.heavySeconds} s; a viewer's ${LIST_PATH} at ${options.heavyRate}/s`,
        );
        run.heavy = await heavyLoop(origin, {
          heavy: heavy.analysis,
          heavyCookie: cookie,
          listPath: LIST_PATH,
          listCookie,
          seconds: options.heavySeconds,
          rate: options.heavyRate,
        });
      }
    }

    const idleHere = options.idleAll || target.rows === Math.min(...options.rows.filter((r) => r > 0));
    if (!options.skip.includes('idle') && options.idleSeconds > 0 && idleHere) {
      log(`[idle] nobody uses the server for ${options.idleSeconds} s …`);
      run.idle = await idleCpu({ web: web.pid, ...(worker ? { worker: worker.pid } : {}) }, options.idleSeconds);
    }
    for (const line of runGoals(run)) log(line);
    return run;
  } finally {
    client.close();
    await stopChild(web);
    if (worker) await stopChild(worker);
  }
}

async function main() {
  const started = new Date();
  const git = gitState();
  log(
    `[bench] ${started.toISOString()}  ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}, commit ${git.commit}${git.dirty.length ? ` with uncommitted changes: ${git.dirty.map((l) => l.slice(3)).join(', ')}` : ''}`,
  );
  log(
    `[bench] ${options.dialects.join(', ')} at ${options.rows.map(sizeLabel).join(', ')} rows; ${options.warmup} warm-up + ${options.samples} samples per target (at most ${options.maxSeconds} s each)`,
  );
  buildIfNeeded(options.rebuild, log);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `screens-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  const report = {
    date: started.toISOString(),
    git,
    machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version },
    options: { ...options, adminUrl: '(postgres)' },
    data: [] as (DataReport & { dialect: Dialect })[],
    runs: [] as RunReport[],
    skipped: [] as Skipped[],
  };
  const save = () => fs.writeFileSync(file, JSON.stringify(report, null, 2));

  for (const dialect of options.dialects) {
    for (const rows of options.rows) {
      const target = benchDatabase(dialect, rows, options.adminUrl);
      const data = await prepareBenchData(target, options.adminUrl, log);
      report.data.push({ ...data, dialect });
      if (options.dataOnly) continue;
      report.runs.push(await measure(target, report));
      save();
    }
  }

  log('');
  for (const dialect of options.dialects) {
    const runs = report.runs.filter((r) => r.dialect === dialect);
    if (!runs.length) continue;
    log(`## ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}\n`);
    for (const run of runs) {
      const data = report.data.find((d) => d.dialect === run.dialect && d.rows === run.rows);
      if (data)
        log(
          `- ${sizeLabel(run.rows)}: demo data + \`finhub db generate --rows ${run.rows}\`: ${Object.entries(
            data.tables,
          )
            .map(([t, n]) => `${n.toLocaleString('en-US')} ${t}`)
            .join(', ')}`,
        );
    }
    log('');
    log(databaseTable(runs));
    log('');
    for (const run of runs) for (const line of runGoals(run)) log(line);
    log('');
  }
  const misses = report.runs.flatMap((run) => missList(run).map((m) => `${run.dialect} ${sizeLabel(run.rows)}: ${m}`));
  log(`${misses.length} target(s) miss a goal${misses.length ? ':' : ''}`);
  for (const m of misses) log(`  ${m}`);
  log(`\n[bench] results: ${path.relative(root, file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
