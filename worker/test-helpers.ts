// Helpers shared by the job tests.
import fs from 'node:fs';
import path from 'node:path';
import { TEST_SCHEMA_PATTERN } from '../test/schemas.ts';
import { loadConfig, type AppConfig } from '../app/platform/config.server.ts';

export const root = path.resolve(import.meta.dirname, '..');

/** The configuration a worker on this test's DATA_DIR loads (what handlers run with), from this process's environment. */
export function testConfig(dataDir: string, env: Record<string, string | undefined> = {}): AppConfig {
  return loadConfig({ ...process.env, ...env, DATA_DIR: dataDir });
}

export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 20_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function lines(file: string): { event: string; pid: number; retry: number; id: string }[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [event, pid, retry, id] = line.split(' ');
      return { event, pid: Number(pid), retry: Number(retry), id };
    });
}

/**
 * A test's pg-boss schema is left for the global teardown (test/global-setup.ts drops every
 * test schema once all files are done): dropped now, it would break another file's migration
 * (Kysely's introspection reads every schema). Its name must match TEST_SCHEMA_PATTERN.
 */
export async function dropSchema(schema: string) {
  if (!TEST_SCHEMA_PATTERN.test(schema)) throw new Error(`${schema} is not named as a test schema`);
}
