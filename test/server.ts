// A real HTTP server on loopback around the built app (run `npm run build` first; `npm test`
// does), over a fresh test database.
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createApp, webRuntime } from '../server.ts';
import { loadConfig } from '../app/platform/config.server.ts';
import type { DialectName } from '../db/dialect.ts';
import { createPreparedDatabase, type TestDatabase } from './database.ts';
import { createTestUser, TEST_PASSWORD } from './users.ts';

const buildFile = path.resolve(import.meta.dirname, '../build/index.js');

/** The ENCRYPTION_KEY of test servers: tests seal and open secrets (credentials, second factors) with it. */
export const TEST_ENCRYPTION_KEY = 'a'.repeat(64);

export interface TestServer {
  baseUrl: string;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * `env`: extra configuration, e.g. higher API rate limits for suites that make many calls, or a
 * DATA_DIR of its own (the database stays in the test database's directory).
 */
export async function startTestServer(dialect: DialectName, env: Record<string, string> = {}): Promise<TestServer> {
  if (!fs.existsSync(buildFile)) throw new Error('build/index.js is missing: run `npm run build` before the API tests');
  const database = await createPreparedDatabase(dialect);
  const config = loadConfig({
    ...env,
    NODE_ENV: 'test',
    DATA_DIR: env.DATA_DIR ?? database.dataDir,
    SESSION_SECRET: 'x'.repeat(32),
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  });
  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
  // A web process without its engine: jobs that may run here do, the others are refused.
  const app = await createApp(config, database, build, webRuntime(config, database));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    database,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.destroy();
    },
  };
}

/** A tiny cookie-keeping client, like a browser without JavaScript. */
export class TestClient {
  readonly baseUrl: string;
  cookies = new Map<string, string>();

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /**
   * Every non-GET/HEAD request carries `Origin: <baseUrl>` as a browser's would (the server
   * refuses state-changing requests without Origin or Referer), unless the caller gave Origin or
   * Referer itself or passes `sameOrigin: false` to send neither.
   */
  async request(
    pathname: string,
    init: RequestInit & { json?: unknown; sameOrigin?: boolean } = {},
  ): Promise<Response> {
    const { sameOrigin = true, json: _json, ...fetchInit } = init;
    const headers = new Headers(init.headers);
    const method = (init.method ?? 'GET').toUpperCase();
    if (sameOrigin && method !== 'GET' && method !== 'HEAD' && !headers.has('Origin') && !headers.has('Referer')) {
      headers.set('Origin', new URL(this.baseUrl).origin);
    }
    if (this.cookies.size) headers.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const response = await fetch(new URL(pathname, this.baseUrl), { ...fetchInit, headers, body, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(';');
      const [name, ...rest] = pair.split('=');
      const value = rest.join('=');
      const expired = attributes.some((a) => /max-age=0/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    return response;
  }

  get(pathname: string, init: RequestInit = {}) {
    return this.request(pathname, { ...init, method: 'GET' });
  }

  post(pathname: string, json?: unknown, init: RequestInit = {}) {
    return this.request(pathname, { ...init, method: 'POST', json });
  }

  /** Posts a form as a browser without JavaScript does (same-origin headers included). */
  postForm(pathname: string, fields: Record<string, string>) {
    return this.request(pathname, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: this.baseUrl },
    });
  }

  async login(email: string, password: string) {
    const response = await this.post('/api/auth/login', { email, password });
    if (response.status !== 200)
      throw new Error(`login failed for ${email}: ${response.status} ${await response.text()}`);
    return response.json();
  }
}

/**
 * A test server for the enclosing describe block. All test traffic comes from 127.0.0.1, so
 * the per-address sign-in throttle is cleared before each test to keep tests independent.
 */
/** `env`: extra settings, or a function giving them once earlier beforeAll hooks have run (a fake server's URL). */
export function useTestServer(
  dialect: DialectName,
  options: { env?: Record<string, string> | (() => Record<string, string>) } = {},
) {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, typeof options.env === 'function' ? options.env() : options.env);
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    await server.database.db.deleteFrom('loginAttempts').execute();
  });
  const client = () => new TestClient(server.baseUrl);
  return {
    server: () => server,
    db: () => server.database.db,
    client,
    /** A new user (viewer unless told), signed in on a client of their own. */
    signedIn: async (options: Parameters<typeof createTestUser>[1] = {}) => {
      const user = await createTestUser(server.database.db, options);
      const c = client();
      await c.login(user.email, options.password ?? TEST_PASSWORD);
      return { user, c };
    },
  };
}
