// End-to-end tests: Debian's Chromium (its headless shell; e2e/support/constants.ts) against the
// built app (`npx remix build` first), served by scripts/e2e-server.ts over a fresh SQLite database. Every spec runs twice: with
// JavaScript (project "js") and without (project "no-js"), since every screen must work both ways.
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_HEADLESS_SHELL, E2E_BASE_URL, E2E_PORT } from './e2e/support/constants.ts';

// One data directory per run. The config is evaluated again in every worker process, which
// inherits the runner's environment, so the value set here is the one the workers see too.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `finhub-e2e-${crypto.randomBytes(6).toString('hex')}`);

export default defineConfig({
  testDir: './e2e',
  testMatch: '*.spec.ts',
  outputDir: './test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // Long journeys (sign in, several screens, a second browser) come close to the default 30 s
  // on a 2-core runner whose Chromium renders in software; the margin keeps them from failing
  // on a slow minute.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: E2E_BASE_URL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: CHROMIUM_HEADLESS_SHELL,
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'js', use: { javaScriptEnabled: true } },
    { name: 'no-js', use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: 'node scripts/e2e-server.ts',
    url: `${E2E_BASE_URL}/readyz`,
    env: { PORT: String(E2E_PORT), E2E_DATA_DIR: process.env.E2E_DATA_DIR },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
