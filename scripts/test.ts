// npm test: build the app (the API and browser tests use the real build), type-check, lint,
// check the formatting, then vitest (unit, service and API suites; on PostgreSQL too when
// TEST_DATABASE_URL is set), the short fault suite (test/faults), then Playwright with
// JavaScript on and off.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.ts';
import { missingPostgresInCi } from '../test/ci.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const run = (command: string, args: string[]) =>
  spawnSync(bin(command), args, { cwd: root, stdio: 'inherit' }).status ?? 1;

const missingPostgres = missingPostgresInCi();
if (missingPostgres) {
  console.error(`[test] ${missingPostgres}`);
  process.exit(1);
}
buildIfStale(root);
console.log(
  `[test] databases: sqlite${process.env.TEST_DATABASE_URL ? ' + postgres (TEST_DATABASE_URL)' : ' (set TEST_DATABASE_URL for PostgreSQL too)'}`,
);
/** Runs at once (each takes one core); each one's output is printed whole when it ends. */
async function together(commands: [string, string, string[]][]): Promise<number> {
  const statuses = await Promise.all(
    commands.map(
      ([name, command, args]) =>
        new Promise<number>((resolve) => {
          const child = spawn(bin(command), args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.on('close', (code) => {
            console.log(`[test] ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`}`);
            if (output.trim()) console.log(output.trimEnd());
            resolve(code ?? 1);
          });
        }),
    ),
  );
  return statuses.find((status) => status !== 0) ?? 0;
}

const steps: [string, () => number | Promise<number>][] = [
  [
    'type check, lint and format check',
    () =>
      together([
        ['type check', 'tsc', []],
        ['lint', 'eslint', ['.', '--max-warnings', '0']],
        ['format check', 'prettier', ['--check', '.', '--log-level', 'warn']],
      ]),
  ],
  ['vitest', () => run('vitest', ['run', ...process.argv.slice(2)])],
  // After vitest: the fault suite restarts the PostgreSQL server the vitest files use.
  ['faults (short)', () => run('node', ['test/faults/run.ts', '--short'])],
  ['playwright', () => run('playwright', ['test'])],
];
const began = Date.now();
const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;
for (const [name, step] of steps) {
  console.log(`[test] ${name}`);
  const at = Date.now();
  const status = await step();
  if (status !== 0) {
    console.error(`[test] ${name} failed (exit ${status}) after ${seconds(at)}`);
    process.exit(status);
  }
  console.log(`[test] ${name}: passed in ${seconds(at)}`);
}
console.log(`[test] everything passed in ${seconds(began)}`);
