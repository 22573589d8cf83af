// Two app servers side by side on the same data, loaded in alternating short batches, so that
// the host's own drift in speed (a VM's can change a lot within an hour) falls on both alike.
// Each side is a checkout (its build/ and node_modules/), node flags and environment variables;
// `--gzip` sends Accept-Encoding as a browser does, `--connections 1` one request at a time. The figure is server
// CPU per request from /proc (all threads: GC and compiler included), per batch, then the
// median of the batches and B ÷ A.
//   npx node bench/ab.ts [--a-root DIR] [--b-root DIR] [--a-flags "--x"] [--b-flags "--y"] [--a-env "K=V …"] [--b-env …]
//                        [--path /actual-expenses] [--connections 8] [--batch 300] [--batches 16]
//                        [--data-dir /tmp/finhub-bench | --database-url …] [--a-data-dir D --b-data-dir E [--jobs]]
// Builds must exist (npm run build in each root). The servers run without the embedded job
// engine (EMBEDDED_JOBS=0): two processes cannot share one engine directory; with a data
// directory per side (--a-data-dir/--b-data-dir, e.g. two copies of one database, or two setups)
// `--jobs` leaves it on, as a user runs the app (`--b-env EMBEDDED_JOBS=0`: what the jobs cost). API rate limits no run reaches (each request
// still counted), since the owner sends every request.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { argValue, numberArg, BENCH_OWNER_EMAIL, BENCH_OWNER_PASSWORD, DEFAULT_DATA_DIR } from './constants.ts';

const argv = process.argv.slice(2);
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const target = argValue(argv, 'path') ?? '/actual-expenses';
const connections = numberArg(argv, 'connections', 8);
const batch = numberArg(argv, 'batch', 300);
const batches = numberArg(argv, 'batches', 16);
const dataDir = argValue(argv, 'data-dir') ?? DEFAULT_DATA_DIR;
const databaseUrl = argValue(argv, 'database-url') ?? '';
const gzip = argv.includes('--gzip');
const jobs = argv.includes('--jobs');
const ticksPerMs = 100 / 1000; // USER_HZ

interface Side {
  name: 'A' | 'B';
  root: string;
  flags: string[];
  env: Record<string, string>;
  dataDir: string;
  child?: ChildProcess;
  origin?: string;
  cookie?: string;
  agent: http.Agent;
  perRequest: number[];
}
const sides: Side[] = (['a', 'b'] as const).map((k) => ({
  name: k.toUpperCase() as 'A' | 'B',
  root: path.resolve(argValue(argv, `${k}-root`) ?? here),
  flags: (argValue(argv, `${k}-flags`) ?? '').split(/\s+/).filter(Boolean),
  env: Object.fromEntries(
    (argValue(argv, `${k}-env`) ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => [kv.split('=')[0], kv.slice(kv.indexOf('=') + 1)]),
  ),
  dataDir: path.resolve(argValue(argv, `${k}-data-dir`) ?? dataDir),
  agent: new http.Agent({ keepAlive: true, maxSockets: connections }),
  perRequest: [],
}));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net
      .createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
  });
}

function request(
  side: Side,
  pathname: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(
      `${side.origin}${pathname}`,
      { method: init.method ?? 'GET', headers: init.headers, agent: side.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

async function start(side: Side) {
  const port = await freePort();
  side.origin = `http://127.0.0.1:${port}`;
  const nodeBin = path.join(side.root, 'node_modules', '.bin', 'node');
  side.child = spawn(fs.existsSync(nodeBin) ? nodeBin : process.execPath, [...side.flags, 'bench/app-server.ts'], {
    cwd: side.root,
    env: {
      ...process.env,
      API_RATE_LIMIT_PER_MINUTE: '100000000',
      API_RATE_LIMIT_PER_HOUR: '100000000',
      EMBEDDED_JOBS: jobs ? '1' : '0',
      ...side.env,
      PORT: String(port),
      DATA_DIR: side.dataDir,
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  for (let i = 0; ; i++) {
    try {
      if ((await request(side, '/healthz')).status < 500) break;
    } catch {
      if (i > 300) throw new Error(`${side.name} did not start`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = await request(side, '/api/auth/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: side.origin },
    body: JSON.stringify({ email: BENCH_OWNER_EMAIL, password: BENCH_OWNER_PASSWORD }),
  });
  const cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? []).find((c) => c.startsWith('__session='));
  if (login.status !== 200 || !cookie) throw new Error(`${side.name}: sign-in failed (${login.status})`);
  side.cookie = cookie.split(';')[0];
}

function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15)
}

async function load(side: Side, count: number) {
  let sent = 0;
  const headers: Record<string, string> = { Cookie: side.cookie! };
  if (gzip) headers['Accept-Encoding'] = 'gzip, deflate, br, zstd';
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (sent < count) {
        sent++;
        const r = await request(side, target, { headers });
        if (r.status !== 200) throw new Error(`${side.name}: ${target} answered ${r.status}`);
      }
    }),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

if (jobs && sides[0].dataDir === sides[1].dataDir && !databaseUrl)
  throw new Error('--jobs needs a data directory per side (--a-data-dir, --b-data-dir)');
try {
  for (const side of sides) await start(side);
  for (const side of sides) await load(side, batch * 2); // warm-up
  for (let i = 0; i < batches; i++) {
    // A B, then B A: neither side always runs right after the other.
    for (const side of i % 2 ? [...sides].reverse() : sides) {
      const before = cpuTicks(side.child!.pid!);
      await load(side, batch);
      side.perRequest.push((cpuTicks(side.child!.pid!) - before) / ticksPerMs / batch);
    }
  }
  const [a, b] = sides.map((s) => median(s.perRequest));
  for (const s of sides) {
    console.log(
      `${s.name} ${s.root} ${s.flags.join(' ')} ${Object.entries(s.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}${s.dataDir !== path.resolve(dataDir) ? ` DATA_DIR=${s.dataDir}` : ''}`.trimEnd(),
    );
    console.log(
      `  ${target}: median ${median(s.perRequest).toFixed(3)} ms CPU/req; batches ${s.perRequest.map((x) => x.toFixed(2)).join(' ')}`,
    );
  }
  const ratios = sides[0].perRequest.map((x, i) => sides[1].perRequest[i] / x);
  console.log(
    `B ÷ A = ${(b / a).toFixed(3)} (median of per-batch ratios ${median(ratios).toFixed(3)}; B lower in ${ratios.filter((r) => r < 1).length} of ${ratios.length} batches)`,
  );
} finally {
  for (const s of sides)
    if (s.child?.pid)
      try {
        process.kill(-s.child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
}
