// `npm start` / `npm test` entry. Runs on whatever Node the shell has (the system one may be
// old): installs dependencies when node_modules is missing or older than the lockfile, then
// hands over to the Node 24 that the `node` devDependency put in node_modules/.bin.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lock = path.join(root, 'package-lock.json');
const installed = path.join(root, 'node_modules', '.package-lock.json');
const node24 = path.join(root, 'node_modules', '.bin', 'node');

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
if (!fs.existsSync(node24) || mtime(installed) < mtime(lock)) {
  console.log('[bootstrap] installing dependencies (npm ci)…');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const scripts = { start: 'scripts/start.ts', test: 'scripts/test.ts' };
const [command, ...args] = process.argv.slice(2);
if (!scripts[command]) {
  console.error(`usage: bootstrap.mjs ${Object.keys(scripts).join('|')}`);
  process.exit(2);
}
const env = { ...process.env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}` };
// The server hosts the embedded job queue's PostgreSQL, compiled to WebAssembly (PGlite): V8's
// optimising tier would recompile its hot functions, which takes a lot of memory at its peak and
// keeps some for good, for queries a queue sends a few of a second. The baseline compiler serves them.
const flags = { start: ['--liftoff-only'], test: [] };
const child = spawn(node24, [...flags[command], path.join(root, scripts[command]), ...args], {
  cwd: root,
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
