import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Playwright specs live in e2e/*.spec.ts and must not be picked up here.
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules/**', 'build/**', 'e2e/**'],
    // better-sqlite3 is a native module: separate processes, not worker threads.
    pool: 'forks',
    // Two files at a time (Vitest's default on two cores is one): most files wait on HTTP servers
    // and databases, so two run in about the time of one.
    maxWorkers: 2,
    // Once before all files: no CI run without PostgreSQL, and a fresh build for the test servers.
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
