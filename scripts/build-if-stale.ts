// Builds the Remix app when build/ is missing or older than anything it is built from.
// Shared by `npm test`, the vitest global setup and the e2e server. Concurrent callers (vitest
// and Playwright started together, two terminals) take a lock file, so only one builds and the
// others wait for it and then find the build fresh. Finding a build fresh costs only stat calls.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '../app/platform/process.server.ts';

const SOURCES = ['app', 'remix.config.js', 'tailwind.config.ts', 'package-lock.json', 'db', 'public/favicon.svg'];
const LOCK_WAIT_MS = 5 * 60_000;

function newest(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}

export function isBuildFresh(root: string): boolean {
  const output = path.join(root, 'build', 'index.js');
  const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map((s) => newest(path.join(root, s))));
  return built > sources;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Runs `fn` holding `<root>/.build.lock` (exclusive create; a dead holder's lock is taken over). */
function withBuildLock(root: string, fn: () => void): void {
  const lock = path.join(root, '.build.lock');
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lock, 'utf8').trim());
      if (!Number.isSafeInteger(holder) || holder <= 0 || !isProcessAlive(holder)) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`[build] ${lock} is held by process ${holder} for too long`);
      pause(250);
    }
  }
  try {
    fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

export function buildIfStale(root: string): void {
  if (isBuildFresh(root)) return;
  withBuildLock(root, () => {
    // Another process may have built it while this one waited for the lock.
    if (isBuildFresh(root)) return;
    console.log('[build] building the app…');
    // Always the production build (what `npm run build` makes): vitest sets NODE_ENV=test,
    // which would otherwise give a development bundle (jsxDEV) the e2e server cannot run.
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
    const result = spawnSync(path.join(root, 'node_modules', '.bin', 'remix'), ['build'], {
      cwd: root,
      stdio: 'inherit',
      env,
    });
    if (result.status !== 0) throw new Error('remix build failed');
  });
}
