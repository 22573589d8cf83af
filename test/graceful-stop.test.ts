// server.ts on SIGTERM behind a load balancer (SHUTDOWN_DRAIN_SECONDS): `/readyz` answers 503
// at once while every other request is still served, then the process stops accepting
// connections and exits 0. Without a drain (and always on SIGINT) it closes at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './server-process.ts';

describe('graceful stop of a web process', () => {
  let base: string;
  let server: ServerProcess | null = null;
  beforeAll(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-stop-'));
  });
  afterEach(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    server = null;
  });
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  const start = async (name: string, extra: Record<string, string> = {}) => {
    const { DATABASE_URL: _, TEST_DATABASE_URL: __, ...rest } = process.env;
    server = await spawnServer({
      ...rest,
      NODE_ENV: 'test',
      DATA_DIR: path.join(base, name),
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      EMBEDDED_JOBS: '0',
      OWNER_PASSWORD: 'Owner-Password-1',
      ...extra,
    });
    return server;
  };
  const get = (s: ServerProcess, pathname: string) =>
    fetch(`http://127.0.0.1:${s.port}${pathname}`).then(async (r) => ({ status: r.status, body: await r.text() }));
  const refused = (s: ServerProcess) =>
    get(s, '/healthz').then(
      () => false,
      (error: Error & { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
    );

  it(
    'SHUTDOWN_DRAIN_SECONDS: /readyz 503 while requests are still served, then the port closes and it exits 0',
    { timeout: 60_000 },
    async () => {
      const s = await start('drain', { SHUTDOWN_DRAIN_SECONDS: '3' });
      expect(await get(s, '/readyz')).toMatchObject({ status: 200 });
      s.child.kill('SIGTERM');
      await expect.poll(() => s.output()).toContain('/readyz answers 503 for 3 s');
      const ready = await get(s, '/readyz');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toEqual({ status: 'draining', database: 'sqlite' });
      // Still serving everything else: pages, the API, the liveness probe.
      expect(await get(s, '/healthz')).toMatchObject({ status: 200 });
      expect(await get(s, '/login')).toMatchObject({ status: 200 });
      expect(await get(s, '/api/auth/me')).toMatchObject({ status: 401 });
      expect(await s.exited).toBe(0);
      expect(s.output()).toContain('[http] SIGTERM: finishing open requests');
    },
  );

  it(
    'without a drain, and on SIGINT whatever the drain, it closes at once and exits 0',
    { timeout: 90_000 },
    async () => {
      for (const [name, signal, extra] of [
        ['plain', 'SIGTERM', {}],
        ['interrupt', 'SIGINT', { SHUTDOWN_DRAIN_SECONDS: '30' }],
      ] as const) {
        const s = await start(name, extra);
        s.child.kill(signal);
        // The 30 s drain would keep the port open far beyond this test's timeout.
        expect(await s.exited).toBe(0);
        expect(s.output()).not.toContain('/readyz answers 503');
        expect(await refused(s)).toBe(true);
      }
    },
  );
});
