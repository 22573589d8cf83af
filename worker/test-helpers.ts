// Helpers shared by the job tests.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export const root = path.resolve(import.meta.dirname, '..');

export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 20_000): Promise<NonNullable<T>> {
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

export async function dropSchema(schema: string) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
}

