// The floor of one list page (SQLite): what the page cannot cost less than with this React
// tree and these SQL statements. Run by bench/list-page.ts in its own process, beside the app:
//   1. the app (server.ts's createApp over build/index.js) answers the page once as a warm-up
//      and once more while every SQL statement it runs is recorded (text, method, parameters);
//   2. the page's hydration state is read back from that answer (the same loader data);
//   3. the floor per request, timed over --iterations: the recorded statements re-run directly
//      on better-sqlite3 (prepared once, as the app's statement cache does), then the build's
//      own entry (entry.server: renderToString of <RemixServer>) over a static-handler context
//      holding that loader data, with the hydration string made as Remix makes it.
// Route matching, sessions through Kysely, the Fetch API, express and HTTP are what the app
// adds on top; bench/list-page.ts reports app CPU per request ÷ this floor.
//
//   DATA_DIR=… npx node bench/floor.ts --cookie '__session=…' [--path /actual-expenses] [--iterations 2000]
// Prints one JSON line: { floorCpuMsPerRequest, sqlCpuMsPerRequest, renderCpuMsPerRequest, statements, htmlBytes }.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import type { ServerBuild } from '@remix-run/node';
import { createStaticHandler, type AgnosticDataRouteObject } from '@remix-run/router';
import type { Database } from '../db/types.ts';
import { argValue, benchEnv, numberArg } from './constants.ts';

process.env.NODE_ENV = 'production';
const argv = process.argv.slice(2);
const cookie = argValue(argv, 'cookie');
if (!cookie) throw new Error('--cookie is required');
const pagePath = argValue(argv, 'path') ?? '/actual-expenses';
const iterations = numberArg(argv, 'iterations', 2000);

const { createApp, webRuntime } = await import('../server.ts');
const { SqlitePortablePlugin } = await import('../db/portable.ts');
const { loadConfig } = await import('../app/platform/config.server.ts');
const config = loadConfig({ ...benchEnv(), DATABASE_URL: undefined, PORT: '0' });

// The app's connection, with prepare() wrapped to record what one page runs.
type Method = 'all' | 'get' | 'run' | 'iterate';
interface Recorded {
  source: string;
  method: Method;
  args: unknown[];
}
const recorded: Recorded[] = [];
let recording = false;
const database = new SQLite(path.join(config.dataDir, 'finhub.db'));
database.pragma('journal_mode = WAL');
database.pragma('foreign_keys = ON');
database.pragma('busy_timeout = 5000');
const prepare = database.prepare.bind(database);
database.prepare = ((source: string) => {
  const statement = prepare(source);
  for (const method of ['all', 'get', 'run', 'iterate'] as const) {
    const original = (statement as any)[method].bind(statement);
    (statement as any)[method] = (...args: unknown[]) => {
      if (recording) recorded.push({ source, method, args });
      return original(...args);
    };
  }
  return statement;
}) as typeof database.prepare;
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database }),
  plugins: [new CamelCasePlugin(), new SqlitePortablePlugin()],
});
const handle = {
  db,
  dialect: 'sqlite' as const,
  location: path.join(config.dataDir, 'finhub.db'),
  close: () => db.destroy(),
};

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const build = (await import(pathToFileURL(path.join(root, 'build/index.js')).href)) as ServerBuild;
const app = await createApp(config, handle, build, webRuntime(config, handle));
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function page(): Promise<string> {
  const response = await fetch(`${origin}${pagePath}`, { headers: { Cookie: cookie! } });
  if (response.status !== 200) throw new Error(`${pagePath} answered ${response.status}`);
  return response.text();
}
await page();
recording = true;
const html = await page();
recording = false;
server.close();
server.closeAllConnections();

// The loader data the page was rendered with, from its own hydration script.
const contextJson = /window\.__remixContext = (.*?);<\/script>/s.exec(html)?.[1];
if (!contextJson) throw new Error('no window.__remixContext in the page');
const handoff = JSON.parse(contextJson) as { state: { loaderData: Record<string, unknown> } };
const loaderData = handoff.state.loaderData;

// A static handler over the build's route tree whose loaders answer that data.
function dataRoutes(parentId: string | undefined): AgnosticDataRouteObject[] {
  return Object.values(build.routes)
    .filter((route) => route.parentId === parentId)
    .map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index as any,
      caseSensitive: route.caseSensitive,
      hasErrorBoundary: !!route.module.ErrorBoundary,
      loader: () => loaderData[route.id] ?? null,
      children: route.index ? undefined : dataRoutes(route.id),
    })) as AgnosticDataRouteObject[];
}
const url = `${origin}${pagePath}`;
const queried = await createStaticHandler(dataRoutes(undefined)).query(new Request(url));
if (queried instanceof Response) throw new Error('the static handler answered a Response');
const context = queried;
const routeModules = Object.fromEntries(Object.entries(build.routes).map(([id, route]) => [id, route.module]));
const escapes: Record<string, string> = {
  '&': '\\u0026',
  '>': '\\u003e',
  '<': '\\u003c',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
const escapeHtml = (text: string) => text.replace(/[&><\u2028\u2029]/g, (c) => escapes[c]);
const handleRequest = build.entry.module.default;

async function render(): Promise<number> {
  const state = { loaderData: context.loaderData, actionData: context.actionData, errors: null };
  const entryContext = {
    manifest: build.assets,
    routeModules,
    staticHandlerContext: context,
    criticalCss: undefined,
    serverHandoffString: escapeHtml(
      JSON.stringify({ basename: build.basename, future: build.future, isSpaMode: build.isSpaMode, state }),
    ),
    future: build.future,
    isSpaMode: build.isSpaMode,
    serializeError: (error: Error) => ({ message: error.message }),
  };
  const response = await handleRequest(
    new Request(url),
    200,
    new Headers(),
    entryContext as any,
    { nonce: 'floor-nonce' } as any,
  );
  return Number((await response.text()).length);
}

// The recorded statements, prepared once on a plain connection.
const plain = new SQLite(path.join(config.dataDir, 'finhub.db'));
plain.pragma('journal_mode = WAL');
const statements = recorded.map((r) => ({ statement: plain.prepare(r.source), method: r.method, args: r.args }));
function runSql() {
  for (const s of statements) {
    if (s.method === 'iterate') for (const _ of s.statement.iterate(...s.args)) void _;
    else (s.statement as any)[s.method](...s.args);
  }
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
async function measure(fn: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(200, iterations); i++) await fn();
  const before = cpuMs();
  for (let i = 0; i < iterations; i++) await fn();
  return (cpuMs() - before) / iterations;
}

const htmlBytes = await render();
const sqlCpuMsPerRequest = await measure(runSql);
const renderCpuMsPerRequest = await measure(render);
const floorCpuMsPerRequest = await measure(async () => {
  runSql();
  await render();
});
await handle.close();
plain.close();
console.log(
  JSON.stringify({
    floorCpuMsPerRequest,
    sqlCpuMsPerRequest,
    renderCpuMsPerRequest,
    iterations,
    statements: recorded.map((r) => `${r.method} ${r.source.replace(/\s+/g, ' ').slice(0, 160)}`),
    htmlBytes,
    appHtmlBytes: html.length,
  }),
);
process.exit(0);
