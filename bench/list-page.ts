// The list benchmark: the Actual Expenses screen (/actual-expenses) and its API
// (/api/actual-expenses?limit=10) for signed-in users at N actual expenses, under autocannon,
// beside a bare node:http server answering the same bytes, in the same run.
//
//   npx node bench/list-page.ts [--rows 1000000] [--connections 50] [--duration 10] [--warmup 3]
//                               [--database-url postgres://…] [--bare-data [--data-dir /tmp/finhub-bench]] [--no-jobs] [--settle 20]
//                               [--api-users 2000] [--only app-page,app-api] [--rebuild] [--cpu-prof]
//                               [--instrument [--synchronous NORMAL]] [--wait-quiet 300]
//                               [--browser-requests 600] [--open-loop 10] [--floor-iterations 2000]
//
// The setup is the real one unless told otherwise: demo data plus `finhub db generate --rows N`
// (bench/list-data.ts, made by bench/screens.ts's preparation) and the app's jobs on (the
// embedded engine on SQLite, a worker process on PostgreSQL), and the one-at-a-time requests go
// as the owner. --bare-data is the earlier setup (reference data and N expenses only,
// bench/seed-expenses.ts, one-at-a-time requests as the pool's viewers); --no-jobs turns the
// jobs off in either. With --database-url the bench's database is made on that PostgreSQL
// server (in --bare-data: the URL is the database).
//
// Three processes: this one (seeding, orchestration, and autocannon while a run is on), the
// real app server (bench/app-server.ts: server.ts's startServer, NODE_ENV=production) and the
// bare server (bench/bare-server.ts). Only one server is under load at a time; both compete
// with autocannon for the same cores, so the ratio app/bare is the figure that travels.
// See bench/README.md for the method and the measured figures.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { createDatabase, isPostgresUrl } from '../db/client.ts';
import type { CapturedResponse } from './bare-server.ts';
import {
  argValue,
  BENCH_OWNER_EMAIL,
  BENCH_OWNER_PASSWORD,
  benchEnv,
  DEFAULT_DATA_DIR,
  DEFAULT_ROWS,
  numberArg,
  SERVER_NODE_FLAGS,
} from './constants.ts';
import { listBenchDatabase } from './list-data.ts';
import { formatTimings, queryTimings, type QueryTimings } from './query-timings.ts';
import { prepareBenchData, type DataReport } from './screens-data.ts';
import { seedExpenses, type SeedResult } from './seed-expenses.ts';
import {
  browserLike,
  idleCpu,
  openLoop,
  processCpuSeconds,
  type BrowserLikeResult,
  type OpenLoopResult,
} from './request-modes.ts';
import { prepareApiSessions, refreshApiSessions } from './sessions.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const argv = process.argv.slice(2);
const options = {
  rows: numberArg(argv, 'rows', DEFAULT_ROWS),
  connections: numberArg(argv, 'connections', 50),
  duration: numberArg(argv, 'duration', 10),
  warmup: numberArg(argv, 'warmup', 3),
  apiUsers: Math.max(1, numberArg(argv, 'api-users', 2000)),
  idleSamples: numberArg(argv, 'idle-samples', 50),
  /** The earlier setup: reference data and the generated expenses only (bench/seed-expenses.ts). */
  bareData: argv.includes('--bare-data'),
  /** The app's jobs beside the server, as a user runs it: embedded (SQLite) or a worker (PostgreSQL). */
  jobs: !argv.includes('--no-jobs'),
  /** Seconds to let the server's start-up jobs pass before measuring. */
  settle: numberArg(argv, 'settle', argv.includes('--bare-data') ? 0 : 20),
  /** --bare-data: the data directory; otherwise bench/list-data.ts says (SQLite: a given one must be named finhub-screens-…). */
  dataDir: path.resolve(
    argValue(argv, 'data-dir') ?? (argv.includes('--bare-data') ? (process.env.DATA_DIR ?? DEFAULT_DATA_DIR) : ''),
  ),
  /** --bare-data: the database; otherwise the PostgreSQL server the bench's database is made on. */
  databaseUrl:
    argValue(argv, 'database-url') ?? (isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : undefined),
  only: argValue(argv, 'only')
    ?.split(',')
    .map((s) => s.trim()),
  rebuild: argv.includes('--rebuild'),
  cpuProf: argv.includes('--cpu-prof'),
  /** Before each run, wait up to this many seconds for the machine to be idle (others' work). */
  waitQuiet: numberArg(argv, 'wait-quiet', 0),
  /** bench/instrumented-server.ts instead of bench/app-server.ts: SQL statement timings per run. */
  instrument: argv.includes('--instrument'),
  /** With --instrument only: a what-if value of PRAGMA synchronous (the app uses FULL). */
  synchronous: argValue(argv, 'synchronous'),
  /** Sequential browser-like requests per target after the runs (0: none), in batches of 50. */
  browserRequests: numberArg(argv, 'browser-requests', 600),
  /** Seconds of open-loop load at half the measured maximum rate per target (0: none). */
  openLoopSeconds: numberArg(argv, 'open-loop', 10),
  /** Iterations of bench/floor.ts after the runs (SQLite only; 0: none). */
  floorIterations: numberArg(argv, 'floor-iterations', 2000),
};
if (options.synchronous && !options.instrument) throw new Error('--synchronous needs --instrument');
if (options.instrument && options.databaseUrl) throw new Error('--instrument is for SQLite only');

const PAGE_PATH = '/actual-expenses';
/**
 * Requests before the browser-like figures count: the runs before them sent no Accept-Encoding
 * (no gzip), and the server sat idle while its background was measured.
 */
const BROWSER_WARMUP = 100;
const API_PATH = '/api/actual-expenses?limit=10';
const RESULTS_DIR = path.join(root, 'bench', 'results');

const log = (line: string) => console.log(line);
const children: ChildProcess[] = [];

function stopChildren() {
  for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
}
process.on('exit', stopChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopChildren();
    process.exit(130);
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function startChild(name: string, args: string[], env: Record<string, string | undefined>): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .trimEnd()
      .split('\n')
      .map((l) => `  [${name}] ${l}`)
      .join('\n');
  child.stdout!.on('data', (chunk: Buffer) => console.log(prefix(chunk)));
  child.stderr!.on('data', (chunk: Buffer) => console.error(prefix(chunk)));
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM' && code !== null) console.error(`  [${name}] exited with code ${code}`);
  });
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid, 'SIGTERM');
  await exited;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface RawResponse {
  status: number;
  rawHeaders: string[];
  body: Buffer;
  ms: number;
}

/** One GET through node:http (no Accept-Encoding, like autocannon), with the exact bytes. */
function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

function header(r: RawResponse, name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < r.rawHeaders.length; i += 2)
    if (r.rawHeaders[i].toLowerCase() === name) out.push(r.rawHeaders[i + 1]);
  return out;
}

async function waitForHealth(origin: string, child: ChildProcess, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the server exited during start-up');
    try {
      if ((await rawRequest(`${origin}/healthz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${origin} did not become healthy within ${seconds} s`);
}

/** Signs in through /api/auth/login like the browser's sign-in form does; returns the Cookie header. */
async function signIn(origin: string): Promise<string> {
  const r = await rawRequest(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify({ email: BENCH_OWNER_EMAIL, password: BENCH_OWNER_PASSWORD }),
  });
  const body = JSON.parse(r.body.toString());
  if (r.status !== 200 || !body.success) throw new Error(`sign-in failed (${r.status}): ${r.body}`);
  if (body.user.isTemporaryPassword || body.user.passwordChangeRequired)
    throw new Error('the bench owner must change its password first');
  const cookie = header(r, 'set-cookie').find((c) => c.startsWith('__session='));
  if (!cookie) throw new Error('sign-in answered without a __session cookie');
  return cookie.split(';')[0];
}

const SKIPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

function capture(r: RawResponse): CapturedResponse {
  const headers: [string, string][] = [];
  for (let i = 0; i < r.rawHeaders.length; i += 2) {
    if (!SKIPPED_HEADERS.has(r.rawHeaders[i].toLowerCase())) headers.push([r.rawHeaders[i], r.rawHeaders[i + 1]]);
  }
  return { status: r.status, headers, bodyBase64: r.body.toString('base64') };
}

interface IdleTiming {
  path: string;
  bytes: number;
  medianMs: number;
  minMs: number;
  p90Ms: number;
}

/** Sequential requests on one keep-alive connection, nothing else running. */
async function idleTiming(origin: string, pathname: string, cookies: string[], samples: number): Promise<IdleTiming> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < samples + 5; i++) {
    const r = await rawRequest(`${origin}${pathname}`, { headers: { Cookie: cookies[i % cookies.length] } });
    if (r.status !== 200) throw new Error(`${pathname}: status ${r.status}`);
    bytes = r.body.length;
    if (i >= 5) times.push(r.ms);
  }
  times.sort((a, b) => a - b);
  return {
    path: pathname,
    bytes,
    medianMs: times[times.length >> 1],
    minMs: times[0],
    p90Ms: times[Math.floor(times.length * 0.9)],
  };
}

interface RunResult {
  name: string;
  target: 'bare' | 'app';
  kind: 'page' | 'api';
  reqPerSec: number;
  p50: number;
  p99: number;
  p97_5: number;
  avg: number;
  max: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerResponse: number;
  statusCodes: Record<string, number>;
  /** Requests of the discarded warm-up before the measured run. */
  warmupRequests: number;
  /** 1-minute load average when the run started: other work on the machine skews a run. */
  loadBefore: number;
  /** Share of the cores busy with other work during the second before the run. */
  busyBefore: number;
  /** CPU time (user + system, all threads) the server process used per request, in ms. */
  serverCpuMsPerRequest: number;
  /** Cores busy on average: the server process and autocannon (this process). */
  serverCores: number;
  loadgenCores: number;
}

/** Share of all cores busy over `ms` (from /proc/stat), while the bench itself is idle. */
async function machineBusy(ms = 1000): Promise<number> {
  const read = () => {
    try {
      const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
      const idle = cpu[3] + (cpu[4] ?? 0);
      return { idle, total: cpu.reduce((a, b) => a + b, 0) };
    } catch {
      return null;
    }
  };
  const a = read();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = read();
  if (!a || !b || b.total === a.total) return NaN;
  return 1 - (b.idle - a.idle) / (b.total - a.total);
}

/** With --wait-quiet: waits (up to the given seconds) until other work leaves the cores idle. */
async function waitQuiet(label: string): Promise<number> {
  const deadline = Date.now() + options.waitQuiet * 1000;
  let busy = await machineBusy();
  let warned = false;
  while (options.waitQuiet > 0 && busy > 0.1 && Date.now() < deadline) {
    if (!warned) log(`  (${label}: waiting for other work to finish: ${(busy * 100).toFixed(0)}% of the cores busy)`);
    warned = true;
    busy = await machineBusy(2000);
  }
  return busy;
}

/** What a run sends: one path, and the Cookie header of each request taken in turn from `cookies`. */
interface Workload {
  path: string;
  cookies: string[];
}

async function load(origin: string, workload: Workload, duration: number): Promise<Result> {
  const { cookies } = workload;
  let next = 0;
  return autocannon({
    url: origin,
    connections: options.connections,
    duration,
    pipelining: 1,
    timeout: 10,
    requests: [
      cookies.length === 1
        ? { method: 'GET', path: workload.path, headers: { Cookie: cookies[0] } }
        : {
            method: 'GET',
            path: workload.path,
            // Round robin over the pool across all connections, so that every user stays far
            // below the per-user rate limit (all connections share this counter).
            setupRequest: (request: Record<string, any>) => ({
              ...request,
              headers: { ...request.headers, Cookie: cookies[next++ % cookies.length] },
            }),
          },
    ],
  });
}

async function run(
  name: string,
  target: 'bare' | 'app',
  kind: 'page' | 'api',
  origin: string,
  workload: Workload,
  pid: number | undefined,
  before?: () => Promise<void>,
  server?: ChildProcess,
): Promise<RunResult> {
  const busyBefore = await waitQuiet(name);
  if (before) await before();
  const loadBefore = os.loadavg()[0];
  const warm = options.warmup > 0 ? await load(origin, workload, options.warmup) : null;
  server?.stdin?.write('reset\n');
  const cpuBefore = processCpuSeconds(pid);
  const ownBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const r = await load(origin, workload, options.duration);
  const wall = (performance.now() - wallBefore) / 1000;
  const serverCpu = processCpuSeconds(pid) - cpuBefore;
  const own = process.cpuUsage(ownBefore);
  if (server) {
    server.stdin?.write(`report ${name}\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  const result: RunResult = {
    name,
    target,
    kind,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p97_5: r.latency.p97_5,
    p99: r.latency.p99,
    avg: r.latency.average,
    max: r.latency.max,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    bytesPerResponse: r.requests.total ? Math.round(r.throughput.total / r.requests.total) : 0,
    statusCodes,
    warmupRequests: warm?.requests.total ?? 0,
    loadBefore,
    busyBefore,
    serverCpuMsPerRequest: r.requests.total ? (serverCpu * 1000) / r.requests.total : NaN,
    serverCores: serverCpu / wall,
    loadgenCores: (own.user + own.system) / 1e6 / wall,
  };
  log(
    `  ${name.padEnd(9)} ${fmt(result.reqPerSec, 0).padStart(7)} req/s  p50 ${fmt(result.p50)} ms  p99 ${fmt(result.p99)} ms  server CPU ${fmt(result.serverCpuMsPerRequest, 2)} ms/req (${fmt(result.serverCores, 2)} cores; autocannon ${fmt(result.loadgenCores, 2)})  (${result.total} requests${result.non2xx || result.errors ? `, ${result.non2xx} non-2xx ${JSON.stringify(statusCodes)}, ${result.errors} errors` : ''})`,
  );
  return result;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

/** Newest modification time under the build's sources (as scripts/build-if-stale.ts sees them). */
function newestSource(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(target)
    .reduce((latest, entry) => Math.max(latest, newestSource(path.join(target, entry))), stat.mtimeMs);
}

function gitState(): { commit: string; dirty: string[] } {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout?.trim() ?? '';
  const dirty = git('status', '--porcelain', '--', 'app', 'db', 'server.ts', 'remix.config.js')
    .split('\n')
    .filter(Boolean);
  // A copy made with `git archive` (to bench a commit while others edit the checkout) names it.
  return { commit: git('rev-parse', '--short', 'HEAD') || process.env.BENCH_COMMIT || '(unknown)', dirty };
}

function buildIfNeeded() {
  const output = path.join(root, 'build', 'index.js');
  if (!options.rebuild && fs.existsSync(output)) {
    const built = fs.statSync(output).mtimeMs;
    const sources = Math.max(...['app', 'db', 'remix.config.js'].map((s) => newestSource(path.join(root, s))));
    log(`[build] using build/index.js of ${new Date(built).toISOString()} (--rebuild to build first)`);
    if (sources > built)
      log(
        `[build] WARNING: app/ or db/ changed after that build (${new Date(sources).toISOString()}): the routes run the older code`,
      );
    return;
  }
  log('[build] npx remix build …');
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'remix'), ['build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('remix build failed');
}

function table(results: RunResult[]): string {
  const by = (name: string) => results.find((r) => r.name === name);
  const lines = [
    `| run       |   req/s |  p50 ms |  p99 ms | p97.5 ms | max ms | requests | non-2xx/errors | bytes/resp | server CPU ms/req | server cores | autocannon cores | load | busy before |`,
    `|-----------|--------:|--------:|--------:|---------:|-------:|---------:|---------------:|-----------:|------------------:|-------------:|-----------------:|-----:|------------:|`,
  ];
  for (const r of results) {
    lines.push(
      `| ${r.name.padEnd(9)} | ${fmt(r.reqPerSec, 0).padStart(7)} | ${fmt(r.p50).padStart(7)} | ${fmt(r.p99).padStart(7)} | ${fmt(r.p97_5).padStart(8)} | ${fmt(r.max, 0).padStart(6)} | ${String(r.total).padStart(8)} | ${`${r.non2xx}/${r.errors + r.timeouts}`.padStart(14)} | ${String(r.bytesPerResponse).padStart(10)} | ${fmt(r.serverCpuMsPerRequest, 3).padStart(17)} | ${fmt(r.serverCores, 2).padStart(12)} | ${fmt(r.loadgenCores, 2).padStart(16)} | ${r.loadBefore.toFixed(1).padStart(4)} | ${`${fmt(r.busyBefore * 100, 0)}%`.padStart(11)} |`,
    );
  }
  lines.push('');
  for (const kind of ['page', 'api'] as const) {
    const app = by(`app-${kind}`);
    const bare = by(`bare-${kind}`);
    if (!app) continue;
    const goalRatio = kind === 'page' ? 0.15 : 0.4;
    const ratio = bare ? app.reqPerSec / bare.reqPerSec : NaN;
    const clean = app.non2xx === 0 && app.errors === 0 && app.timeouts === 0;
    lines.push(
      `${kind.padEnd(4)}: app/bare = ${fmt(ratio, 3)} (goal ≥ ${goalRatio}: ${ratio >= goalRatio ? 'met' : 'NOT met'}); ` +
        `app p99 = ${fmt(app.p99)} ms at ${options.connections} connections (goal < 100 ms: ${app.p99 < 100 ? 'met' : 'NOT met'})` +
        (clean ? '' : ' — WARNING: the app answered non-2xx or errors, figures are not valid'),
    );
  }
  return lines.join('\n');
}

async function main() {
  const started = new Date();
  log(
    `[bench] ${started.toISOString()}  ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}`,
  );
  if (options.instrument)
    log(
      `[bench] app server: bench/instrumented-server.ts (SQL timing wrappers${options.synchronous ? `, what-if synchronous=${options.synchronous}` : ''}): not the figures to quote`,
    );
  log(
    `[bench] rows ${options.rows.toLocaleString('en-US')}, ${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s per run, API session pool ${options.apiUsers}`,
  );
  const load = os.loadavg();
  if (load[0] > 1.5)
    log(
      `[bench] WARNING: load average ${load.map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores: something else is running, figures will be low and noisy`,
    );
  const git = gitState();
  log(
    `[bench] commit ${git.commit}${git.dirty.length ? ` with uncommitted changes: ${git.dirty.map((l) => l.slice(3)).join(', ')}` : ''}`,
  );
  buildIfNeeded();

  let seed: SeedResult | null = null;
  let data: DataReport | null = null;
  if (options.bareData) {
    seed = await seedExpenses({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, rows: options.rows, log });
  } else {
    const adminUrl = options.databaseUrl ?? '';
    const target = listBenchDatabase(adminUrl ? 'postgres' : 'sqlite', options.rows, adminUrl);
    if (argValue(argv, 'data-dir') && !adminUrl) target.dataDir = options.dataDir;
    data = await prepareBenchData(target, adminUrl, log);
    options.dataDir = target.dataDir;
    options.databaseUrl = target.databaseUrl;
  }
  log(
    `[bench] setup: ${options.bareData ? 'reference data and the generated expenses only (--bare-data)' : 'demo data plus finhub db generate'}, jobs ${options.jobs ? 'on' : 'off'}${options.jobs && options.databaseUrl ? ' (a worker process)' : ''}; data in ${options.databaseUrl ? new URL(options.databaseUrl).pathname.slice(1) : options.dataDir}`,
  );

  // Idle: the list's pieces without HTTP (SQLite only), before any server runs.
  let timings: QueryTimings | null = null;
  if (!options.databaseUrl) {
    timings = await queryTimings({ dataDir: options.dataDir, iterations: 30 });
    log(formatTimings(timings));
  }

  const handle = createDatabase({ url: options.databaseUrl, dataDir: options.dataDir });
  let apiCookies: string[];
  try {
    apiCookies = await prepareApiSessions(handle, options.apiUsers);
  } finally {
    await handle.close();
  }

  const appPort = await freePort();
  const appOrigin = `http://127.0.0.1:${appPort}`;
  const profDir = path.join(RESULTS_DIR, `cpu-prof-${started.toISOString().replace(/[:.]/g, '-')}`);
  const serverScript = options.instrument ? 'bench/instrumented-server.ts' : 'bench/app-server.ts';
  const appEnv = {
    PORT: String(appPort),
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl ?? '',
    NODE_ENV: 'production',
    BENCH_SQLITE_SYNCHRONOUS: options.synchronous ?? '',
    EMBEDDED_JOBS: options.jobs ? '1' : '0',
    // The owner's one-at-a-time /api requests (real setup): counted as ever, never refused.
    ...(options.bareData ? {} : { API_RATE_LIMIT_PER_MINUTE: '100000000', API_RATE_LIMIT_PER_HOUR: '100000000' }),
  };
  const app = startChild(
    'app',
    [...SERVER_NODE_FLAGS, ...(options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), serverScript],
    appEnv,
  );
  // PostgreSQL: the jobs run in a worker process (`npm run worker`), as in production.
  const worker =
    options.jobs && options.databaseUrl ? startChild('worker', ['worker/main.ts'], { ...benchEnv(), ...appEnv }) : null;
  await waitForHealth(appOrigin, app);
  if (options.settle > 0) {
    log(`[bench] letting the start-up jobs pass for ${options.settle} s`);
    await new Promise((resolve) => setTimeout(resolve, options.settle * 1000));
  }

  const ownerCookie = await signIn(appOrigin);
  const page = await rawRequest(`${appOrigin}${PAGE_PATH}`, { headers: { Cookie: ownerCookie } });
  if (page.status !== 200) throw new Error(`${PAGE_PATH} answered ${page.status} ${header(page, 'location')}`);
  const api = await rawRequest(`${appOrigin}${API_PATH}`, { headers: { Cookie: apiCookies[0] } });
  if (api.status !== 200) throw new Error(`${API_PATH} answered ${api.status}: ${api.body}`);
  const apiAsOwner = await rawRequest(`${appOrigin}${API_PATH}`, { headers: { Cookie: ownerCookie } });
  if (!apiAsOwner.body.equals(api.body)) throw new Error('the pool users and the owner see different API bodies');
  const total = Number(header(api, 'x-total-count')[0]);
  log(
    `[bench] captured ${PAGE_PATH} (${page.body.length} bytes, ${header(page, 'content-type')[0]}) and ${API_PATH} (${api.body.length} bytes, X-Total-Count ${total})`,
  );

  // One request at a time on an idle server: what a single request costs.
  const idle = [
    await idleTiming(appOrigin, PAGE_PATH, [ownerCookie], options.idleSamples),
    await idleTiming(appOrigin, API_PATH, apiCookies, options.idleSamples),
  ];
  for (const t of idle)
    log(
      `  idle ${t.path}: median ${fmt(t.medianMs, 2)} ms, min ${fmt(t.minMs, 2)} ms, p90 ${fmt(t.p90Ms, 2)} ms (${t.bytes} bytes)`,
    );

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const capturedFile = path.join(RESULTS_DIR, 'captured-responses.json');
  fs.writeFileSync(capturedFile, JSON.stringify({ [PAGE_PATH]: capture(page), [API_PATH]: capture(api) }));
  const barePort = await freePort();
  const bareOrigin = `http://127.0.0.1:${barePort}`;
  const bare = startChild('bare', ['bench/bare-server.ts', String(barePort), capturedFile], {});
  await waitForHealthBare(bareOrigin, bare);

  const pageWorkload: Workload = { path: PAGE_PATH, cookies: [ownerCookie] };
  const apiWorkload: Workload = { path: API_PATH, cookies: apiCookies };
  const refresh = async () => {
    const h = createDatabase({ url: options.databaseUrl, dataDir: options.dataDir });
    try {
      await refreshApiSessions(h);
    } finally {
      await h.close();
    }
  };
  const plan: [string, 'bare' | 'app', 'page' | 'api', string, Workload, (() => Promise<void>)?][] = [
    ['bare-page', 'bare', 'page', bareOrigin, pageWorkload],
    ['app-page', 'app', 'page', appOrigin, pageWorkload],
    ['bare-api', 'bare', 'api', bareOrigin, apiWorkload],
    ['app-api', 'app', 'api', appOrigin, apiWorkload, refresh],
  ];
  log(
    `[bench] autocannon: ${options.connections} connections, ${options.warmup} s warm-up (discarded) then ${options.duration} s`,
  );
  const results: RunResult[] = [];
  for (const [name, target, kind, origin, workload, before] of plan) {
    if (options.only && !options.only.includes(name)) continue;
    const pid = target === 'app' ? app.pid : bare.pid;
    results.push(
      await run(
        name,
        target,
        kind,
        origin,
        workload,
        pid,
        before,
        target === 'app' && options.instrument ? app : undefined,
      ),
    );
  }

  // Requests whose client autocannon dropped at the end of the last run may still be running.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await stopChild(bare);

  const browser: BrowserLikeResult[] = [];
  const openLoops: OpenLoopResult[] = [];
  let extraRequests = 0;
  if (options.browserRequests > 0) {
    // One request at a time, as a browser sends them, less the server's own idle CPU.
    await waitQuiet('browser-like');
    const idleMsPerSecond = await idleCpu(app.pid, 10);
    const browserCookies = options.bareData ? apiCookies : [ownerCookie];
    log(
      `[bench] browser-like: the idle app server uses ${fmt(idleMsPerSecond, 2)} ms of CPU per second (its job engine; median of 10 one-second readings); ${options.browserRequests} sequential requests per target after ${BROWSER_WARMUP} warm-up requests, gzip accepted, ${options.bareData ? `${apiCookies.length} signed-in viewers in turn` : 'as the owner'}`,
    );
    await refresh();
    for (const [target, accept] of [
      [PAGE_PATH, undefined],
      [API_PATH, 'application/json'],
    ] as const) {
      const r = await browserLike({
        origin: appOrigin,
        path: target,
        cookies: browserCookies,
        pid: app.pid,
        requests: options.browserRequests,
        warmup: BROWSER_WARMUP,
        idleCpuMsPerSecond: idleMsPerSecond,
        accept,
      });
      browser.push(r);
      extraRequests += r.requests + BROWSER_WARMUP;
      log(
        `  browser ${target}: server CPU ${fmt(r.serverCpuMsPerRequest, 2)} ms/req (median of ${r.batches.length} batches of ${r.batch}: ${r.batches.map((b) => fmt(b, 2)).join(' ')}; all requests ${fmt(r.meanCpuMsPerRequest, 2)}, ${fmt(r.grossCpuMsPerRequest, 2)} with the idle background), median ${fmt(r.medianMs, 2)} ms, p90 ${fmt(r.p90Ms, 2)} ms, ${r.wireBytes} bytes ${r.encoding}`,
      );
    }
  }
  if (options.openLoopSeconds > 0) {
    // Latency at half the maximum rate the closed-loop runs reached, requests sent on schedule.
    for (const [kind, target] of [
      ['page', PAGE_PATH],
      ['api', API_PATH],
    ] as const) {
      const max = results.find((r) => r.name === `app-${kind}`);
      if (!max) continue;
      await waitQuiet(`open-loop ${kind}`);
      await refresh();
      const rate = Math.max(1, Math.round(max.reqPerSec / 2));
      const cookies = kind === 'page' ? [ownerCookie] : apiCookies;
      const r = await openLoop({ origin: appOrigin, path: target, cookies, rate, seconds: options.openLoopSeconds });
      openLoops.push(r);
      extraRequests += r.sent;
      log(
        `  open loop ${target} at ${rate} req/s (half of ${fmt(max.reqPerSec, 0)}): p50 ${fmt(r.p50)} ms, p90 ${fmt(r.p90)} ms, p99 ${fmt(r.p99)} ms, max ${fmt(r.max)} ms (${r.completed}/${r.sent} answered, ${r.non200} non-200, ${r.errors} errors, ${r.lateStarts} sent late by the load generator)`,
      );
    }
  }
  await stopChild(app);
  if (worker) await stopChild(worker);

  // The page's floor (bench/floor.ts) in its own process once the app has stopped.
  let floor: FloorResult | null = null;
  if (options.floorIterations > 0 && !options.databaseUrl) {
    await waitQuiet('floor');
    floor = runFloor(ownerCookie);
    const appPage = results.find((r) => r.name === 'app-page');
    log(
      `[bench] floor of ${PAGE_PATH}: ${fmt(floor.floorCpuMsPerRequest, 3)} ms CPU per request (SQL ${fmt(floor.sqlCpuMsPerRequest, 3)} ms in ${floor.statements.length} statements, render ${fmt(floor.renderCpuMsPerRequest, 3)} ms)${appPage ? `; app-page ÷ floor = ${fmt(appPage.serverCpuMsPerRequest / floor.floorCpuMsPerRequest, 2)} (goal ≤ 1.5)` : ''}`,
    );
  }

  // Everything the app server answered: sign-in, captures, idle samples, warm-ups, runs.
  const appRequests =
    3 +
    2 * (options.idleSamples + 5) +
    results.filter((r) => r.target === 'app').reduce((n, r) => n + r.warmupRequests + r.total, 0) +
    extraRequests;
  const summary = [table(results), floorLine(floor, results), browserTable(browser), openLoopTable(openLoops)]
    .filter(Boolean)
    .join('\n\n');
  log('');
  log(summary);
  const report = {
    date: started.toISOString(),
    git,
    build: fs.existsSync(path.join(root, 'build', 'index.js'))
      ? fs.statSync(path.join(root, 'build', 'index.js')).mtime.toISOString()
      : null,
    machine: {
      cores: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      node: process.version,
      platform: `${os.type()} ${os.release()}`,
    },
    options: { ...options, databaseUrl: options.databaseUrl ? '(postgres)' : undefined },
    server: options.instrument
      ? `bench/instrumented-server.ts (synchronous=${options.synchronous ?? 'FULL'})`
      : 'bench/app-server.ts',
    setup: options.bareData ? 'bare' : 'real',
    jobs: options.jobs,
    seed,
    data,
    apiTotalCount: total,
    appRequests,
    bytes: { page: page.body.length, api: api.body.length },
    idle,
    timings,
    results,
    browser,
    openLoops,
    floor,
    summary,
  };
  const out = path.join(RESULTS_DIR, `list-page-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(out, JSON.stringify(report, null, 2));
  log(
    `\n[bench] results written to ${path.relative(root, out)}${options.cpuProf ? `; CPU profile of the app server in ${path.relative(root, profDir)} (npx node bench/cpu-profile.ts ${path.relative(root, profDir)} --requests ${appRequests})` : ''}`,
  );
  log(`[bench] total time ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s`);
}

interface FloorResult {
  floorCpuMsPerRequest: number;
  sqlCpuMsPerRequest: number;
  renderCpuMsPerRequest: number;
  iterations: number;
  statements: string[];
  htmlBytes: number;
  appHtmlBytes: number;
}

function runFloor(cookie: string): FloorResult {
  const result = spawnSync(
    process.execPath,
    ['bench/floor.ts', '--cookie', cookie, '--path', PAGE_PATH, '--iterations', String(options.floorIterations)],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: options.dataDir, NODE_ENV: 'production' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.status !== 0) throw new Error(`bench/floor.ts failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as FloorResult;
}

function floorLine(floor: FloorResult | null, results: RunResult[]): string {
  if (!floor) return '';
  const appPage = results.find((r) => r.name === 'app-page');
  const ratio = appPage ? appPage.serverCpuMsPerRequest / floor.floorCpuMsPerRequest : NaN;
  return [
    `floor of ${PAGE_PATH} (bench/floor.ts, ${floor.iterations} iterations): ${fmt(floor.floorCpuMsPerRequest, 3)} ms CPU per request = SQL ${fmt(floor.sqlCpuMsPerRequest, 3)} ms (${floor.statements.length} statements run directly) + render ${fmt(floor.renderCpuMsPerRequest, 3)} ms (entry.server over the same loader data, ${floor.htmlBytes} bytes; the app answered ${floor.appHtmlBytes})`,
    `page: app CPU ÷ floor = ${fmt(ratio, 2)} (goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'}); app page CPU ${fmt(appPage?.serverCpuMsPerRequest ?? NaN, 3)} ms/req (goal ≤ 2.0: ${(appPage?.serverCpuMsPerRequest ?? Infinity) <= 2 ? 'met' : 'NOT met'})`,
    ...floor.statements.map((s) => `  sql: ${s}`),
  ].join('\n');
}

function browserTable(rows: BrowserLikeResult[]): string {
  if (!rows.length) return '';
  const goal = (r: BrowserLikeResult) => (r.path === PAGE_PATH ? 3.0 : 1.2);
  const lines = [
    '| browser-like, one at a time | server CPU ms/req (less idle, median batch) | batches (min–max) | all requests, less idle | with idle background | idle ms CPU/s | median ms | p90 ms | wire bytes | goal |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.path} | ${fmt(r.serverCpuMsPerRequest, 2)} | ${fmt(Math.min(...r.batches), 2)}–${fmt(Math.max(...r.batches), 2)} | ${fmt(r.meanCpuMsPerRequest, 2)} | ${fmt(r.grossCpuMsPerRequest, 2)} | ${fmt(r.idleCpuMsPerSecond, 2)} | ${fmt(r.medianMs, 2)} | ${fmt(r.p90Ms, 2)} | ${r.wireBytes} ${r.encoding} | ≤ ${goal(r).toFixed(1)} ms: ${r.serverCpuMsPerRequest <= goal(r) ? 'met' : 'NOT met'} |`,
    );
  }
  return lines.join('\n');
}

function openLoopTable(rows: OpenLoopResult[]): string {
  if (!rows.length) return '';
  const lines = [
    '| open loop | req/s | p50 ms | p90 ms | p99 ms | max ms | answered | non-200/errors | sent late | p99 < 50 ms |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  ];
  for (const r of rows) {
    const clean = r.non200 === 0 && r.errors === 0 && r.completed === r.sent;
    lines.push(
      `| ${r.path} | ${r.ratePerSecond} | ${fmt(r.p50)} | ${fmt(r.p90)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${r.completed}/${r.sent} | ${r.non200}/${r.errors} | ${r.lateStarts} | ${clean && r.p99 < 50 ? 'met' : 'NOT met'} |`,
    );
  }
  return lines.join('\n');
}

async function waitForHealthBare(origin: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the bare server exited during start-up');
    try {
      if ((await rawRequest(`${origin}${API_PATH}`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the bare server did not start');
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    stopChildren();
    process.exit(1);
  },
);
