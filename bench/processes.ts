// The app's processes for a bench run, started the way a user starts them: the web server
// (bench/app-server.ts: server.ts's startServer, NODE_ENV=production, the embedded job engine on
// SQLite) and, on PostgreSQL, a job worker (worker/main.ts, as `npm run worker`). Plus the
// /proc readings the benches take of them (CPU time, resident memory).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { BENCH_OWNER_EMAIL, BENCH_OWNER_PASSWORD } from './constants.ts';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const children = new Set<ChildProcess>();
function stopAll() {
  for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
}
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A Node child (this process's Node 24) with its output prefixed by `name`. */
export function startChild(
  name: string,
  args: string[],
  env: Record<string, string | undefined>,
  quiet = false,
): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .trimEnd()
      .split('\n')
      .map((l) => `  [${name}] ${l}`)
      .join('\n');
  child.stdout!.on('data', (chunk: Buffer) => {
    if (!quiet) console.log(prefix(chunk));
  });
  child.stderr!.on('data', (chunk: Buffer) => console.error(prefix(chunk)));
  child.on('exit', (code, signal) => {
    children.delete(child);
    if (code !== 0 && code !== null && signal !== 'SIGTERM') console.error(`  [${name}] exited with code ${code}`);
  });
  return child;
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid, 'SIGTERM');
  await exited;
}

export async function waitForHealth(origin: string, child: ChildProcess, seconds = 300): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the server exited during start-up');
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.get(`${origin}/healthz`, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      });
      req.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${origin} did not become healthy within ${seconds} s`);
}

/** Signs the bench owner in through /api/auth/login, as the sign-in form does; the Cookie header. */
export async function signInOwner(origin: string): Promise<string> {
  const response = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify({ email: BENCH_OWNER_EMAIL, password: BENCH_OWNER_PASSWORD }),
  });
  const body = (await response.json()) as {
    success?: boolean;
    user?: { isTemporaryPassword?: boolean; passwordChangeRequired?: boolean };
  };
  if (response.status !== 200 || !body.success)
    throw new Error(`sign-in failed (${response.status}): ${JSON.stringify(body)}`);
  if (body.user?.isTemporaryPassword || body.user?.passwordChangeRequired)
    throw new Error('the bench owner must change its password first');
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('__session='));
  if (!cookie) throw new Error('sign-in answered without a __session cookie');
  return cookie.split(';')[0];
}

const CLOCK_TICKS = 100; // getconf CLK_TCK on Linux

/** CPU seconds (user + system, all threads) a process has used so far, from /proc. */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** Resident memory of a process in bytes (VmRSS), from /proc. */
export function residentBytes(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Share of all cores busy over `ms` (from /proc/stat): other work on the machine. */
export async function machineBusy(ms = 1000): Promise<number> {
  const read = () => {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: cpu[3] + (cpu[4] ?? 0), total: cpu.reduce((a, b) => a + b, 0) };
  };
  const a = read();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = read();
  return b.total === a.total ? NaN : 1 - (b.idle - a.idle) / (b.total - a.total);
}

export function gitState(): { commit: string; dirty: string[] } {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout ?? '';
  const dirty = git('status', '--porcelain', '--', 'app', 'db', 'worker', 'server.ts', 'remix.config.js')
    .split('\n')
    .filter(Boolean);
  // A copy made with `git archive` (to bench a commit while others edit the checkout) names it.
  return { commit: git('rev-parse', '--short', 'HEAD').trim() || process.env.BENCH_COMMIT || '(unknown)', dirty };
}

function newestSource(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(target)
    .reduce((latest, entry) => Math.max(latest, newestSource(path.join(target, entry))), stat.mtimeMs);
}

/** Builds with `remix build` when asked or when build/index.js is missing; warns when it is older than app/. */
export function buildIfNeeded(rebuild: boolean, log: (line: string) => void): void {
  const output = path.join(root, 'build', 'index.js');
  if (!rebuild && fs.existsSync(output)) {
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
