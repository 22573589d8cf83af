// npm test: build the app (the API and browser tests use the real build), type-check, lint,
// check the formatting, then vitest (unit, service and API suites; on PostgreSQL too when
// TEST_DATABASE_URL is set), the short fault suite (test/faults), then Playwright with
// JavaScript on and off.
import { spawnSync } from 'node:child_process';
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
const steps: [string, () => number][] = [
  ['type check', () => run('tsc', [])],
  ['lint', () => run('eslint', ['.', '--max-warnings', '0'])],
  ['format check', () => run('prettier', ['--check', '.', '--log-level', 'warn'])],
  ['vitest', () => run('vitest', ['run', ...process.argv.slice(2)])],
  // After vitest: the fault suite restarts the PostgreSQL server the vitest files use.
  ['faults (short)', () => run('node', ['test/faults/run.ts', '--short'])],
  ['playwright', () => run('playwright', ['test'])],
];
for (const [name, step] of steps) {
  console.log(`[test] ${name}`);
  const status = step();
  if (status !== 0) {
    console.error(`[test] ${name} failed (exit ${status})`);
    process.exit(status);
  }
}
