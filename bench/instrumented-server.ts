// The app (server.ts's createApp over the same build) on a SQLite connection whose statements
// are timed: on SIGTERM or SIGUSR2 it prints, per SQL statement, how often it ran and how long
// the synchronous better-sqlite3 call took (time the event loop was blocked, including any
// fsync at commit). `bench/list-page.ts --instrument` runs it instead of bench/app-server.ts.
//
// The connection is opened with db/client.ts's settings; BENCH_SQLITE_SYNCHRONOUS=NORMAL
// changes only the synchronous pragma, for what-if comparisons (the real app uses FULL).
//   PORT=… DATA_DIR=… npx node bench/instrumented-server.ts
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import type { ServerBuild } from '@remix-run/node';
import type { Database } from '../db/types.ts';
import { benchEnv } from './constants.ts';

process.env.NODE_ENV = 'production';
const { createApp, webRuntime } = await import('../server.ts');
const { prepareDatabase } = await import('../app/features/system/bootstrap.server.ts');
const { SqlitePortablePlugin } = await import('../db/portable.ts');
const { loadConfig } = await import('../app/platform/config.server.ts');

// SQLite only: the statements are timed on our own better-sqlite3 connection.
const config = loadConfig({ ...benchEnv(), DATABASE_URL: undefined });
const synchronous = process.env.BENCH_SQLITE_SYNCHRONOUS || 'FULL';

const database = new SQLite(path.join(config.dataDir, 'finhub.db'));
database.pragma('journal_mode = WAL');
database.pragma('foreign_keys = ON');
database.pragma('busy_timeout = 5000');
database.pragma(`synchronous = ${synchronous}`);

interface Stat {
  count: number;
  ms: number;
  max: number;
  samples: number[];
}
const stats = new Map<string, Stat>();
const prepare = database.prepare.bind(database);
database.prepare = ((source: string) => {
  const statement = prepare(source);
  const key = source.replace(/\s+/g, ' ');
  for (const method of ['all', 'get', 'run', 'iterate'] as const) {
    const original = (statement as any)[method].bind(statement);
    (statement as any)[method] = (...args: unknown[]) => {
      const started = performance.now();
      try {
        return original(...args);
      } finally {
        const ms = performance.now() - started;
        let s = stats.get(key);
        if (!s) stats.set(key, (s = { count: 0, ms: 0, max: 0, samples: [] }));
        s.count++;
        s.ms += ms;
        s.max = Math.max(s.max, ms);
        if (s.samples.length < 100_000) s.samples.push(ms);
      }
    };
  }
  return statement;
}) as typeof database.prepare;

function report(label = 'since the last report'): string {
  const lines = [`[sql] statement timings ${label} (synchronous=${synchronous}):`];
  lines.push('     total ms    count   avg ms   p99 ms   max ms  statement');
  for (const [sql, s] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) {
    const sorted = s.samples.sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
    lines.push(
      `  ${s.ms.toFixed(0).padStart(10)} ${String(s.count).padStart(8)} ${(s.ms / s.count).toFixed(2).padStart(8)} ${p99.toFixed(2).padStart(8)} ${s.max.toFixed(1).padStart(8)}  ${sql.slice(0, 110)}`,
    );
  }
  stats.clear();
  return lines.join('\n');
}

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
await prepareDatabase(handle, { seedDemo: config.seedDemo, owner: config.owner });
stats.clear();
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const build = (await import(pathToFileURL(path.join(root, 'build/index.js')).href)) as ServerBuild;
const app = await createApp(config, handle, build, webRuntime(config, handle));
const server = app.listen(config.port, config.host, () => {
  console.log(`[http] instrumented app on http://${config.host}:${config.port} (sqlite synchronous=${synchronous})`);
});
process.on('SIGUSR2', () => console.log(report()));
// The orchestrator's commands on stdin: "reset" before a measured run, "report <label>" after.
process.stdin.setEncoding('utf8');
let pending = '';
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  let newline;
  while ((newline = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, newline).trim();
    pending = pending.slice(newline + 1);
    if (line === 'reset') stats.clear();
    else if (line.startsWith('report')) console.log(report(`during ${line.slice(6).trim() || 'the run'}`));
  }
});
process.stdin.on('error', () => {});
process.on('SIGTERM', () => {
  if (stats.size) console.log(report());
  server.close();
  server.closeAllConnections();
  void handle.close().then(() => process.exit(0));
});
