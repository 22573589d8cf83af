// Where the time of one list request goes, measured without HTTP on an idle machine (SQLite):
// the app's own service calls (listRecords with a few list variants, formChoices, resolveSession)
// through Kysely with the app's plugins, and every SQL statement they issue, re-run directly
// through better-sqlite3 with its query plan.
//
//   npx node bench/query-timings.ts [--data-dir /tmp/finhub-bench] [--iterations 30]
import crypto from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, type LogEvent } from 'kysely';
import { SqlitePortablePlugin } from '../db/portable.ts';
import type { Database } from '../db/types.ts';
import { actualExpenses } from '../app/features/resources.ts';
import { listVisibleCompanies } from '../app/platform/companies.server.ts';
import type { ServiceContext } from '../app/platform/context.ts';
import { apiListQuery, screenListQuery, screenListState } from '../app/platform/resources/list-query.ts';
import { formChoices, listRecords } from '../app/platform/resources/resources.server.ts';
import { hashToken, resolveSession } from '../app/platform/session/sessions.server.ts';
import { findUserById } from '../app/features/users/user-queries.server.ts';
import { argValue, DEFAULT_DATA_DIR, numberArg } from './constants.ts';
import { createRuntime } from '../app/platform/runtime.ts';

export interface Timing {
  name: string;
  /** Median and fastest of the iterations, in milliseconds. */
  medianMs: number;
  minMs: number;
  detail?: string;
}

export interface StatementTiming extends Timing {
  sql: string;
  plan: string[];
}

export interface QueryTimings {
  rows: number;
  iterations: number;
  services: Timing[];
  statements: StatementTiming[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function time(name: string, iterations: number, fn: () => unknown, detail?: string): Promise<Timing> {
  await fn(); // warm caches and statement preparation
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return { name, medianMs: median(samples), minMs: Math.min(...samples), detail };
}

export async function queryTimings(options: { dataDir: string; iterations?: number }): Promise<QueryTimings> {
  const iterations = options.iterations ?? 30;
  const file = path.join(options.dataDir, 'finhub.db');
  // The same connection settings as db/client.ts.
  const database = new SQLite(file, { fileMustExist: true });
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = FULL');

  let capture: { sql: string; params: readonly unknown[] }[] | null = null;
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database }),
    plugins: [new CamelCasePlugin(), new SqlitePortablePlugin()],
    log: (event: LogEvent) => {
      if (capture && event.level === 'query') capture.push({ sql: event.query.sql, params: event.query.parameters });
    },
  });
  const captured = async (fn: () => Promise<unknown>) => {
    capture = [];
    await fn();
    const out = capture;
    capture = null;
    return out;
  };

  try {
    const owner = await db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'owner')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const user = (await findUserById(db, owner.id))!;
    const ctx: ServiceContext = { db, actor: { kind: 'user', user }, meta: {}, runtime: createRuntime() };
    const def = actualExpenses;
    const apiQuery = apiListQuery(def, new URLSearchParams('limit=10'));
    const screenQuery = screenListQuery(def, screenListState(def, new URLSearchParams()));
    const rows = Number((database.prepare('SELECT count(*) AS n FROM actual_expenses').get() as { n: number }).n);

    // A session of the owner's for resolveSession, removed afterwards.
    const token = crypto.randomBytes(32).toString('base64url');
    const now = new Date().toISOString();
    await db
      .insertInto('userSessions')
      .values({
        sessionId: crypto.randomUUID(),
        tokenHash: hashToken(token),
        userId: user.id,
        loginAt: now,
        lastSeenAt: now,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        rememberMe: true,
        isActive: true,
      })
      .execute();

    const services: Timing[] = [];
    const listed = await listRecords(ctx, def, apiQuery);
    services.push(
      await time(
        'listRecords (limit 10: count + page)',
        iterations,
        () => listRecords(ctx, def, apiQuery),
        `total ${listed.total}`,
      ),
    );
    const variants: [string, string][] = [
      ['  … ?departmentId=5 (filtered count)', 'limit=10&departmentId=5'],
      ['  … ?q=Azure (search: LIKE over 7 columns)', 'limit=10&q=Azure'],
      ['  … ?sortBy=amount', 'limit=10&sortBy=amount'],
      ['  … ?offset=500000 (deep page)', `limit=10&offset=${Math.floor(rows / 2)}`],
    ];
    for (const [name, search] of variants) {
      const query = apiListQuery(def, new URLSearchParams(search));
      const result = await listRecords(ctx, def, query);
      services.push(
        await time(
          name.replace('500000', String(Math.floor(rows / 2))),
          Math.min(iterations, 5),
          () => listRecords(ctx, def, query),
          `total ${result.total}`,
        ),
      );
    }
    services.push(await time('  JSON.stringify of the 10 rows', iterations, () => JSON.stringify(listed.rows)));
    services.push(await time('formChoices (screen dropdowns)', iterations, () => formChoices(ctx, def, {})));
    services.push(await time('listVisibleCompanies (root loader)', iterations, () => listVisibleCompanies(ctx)));
    services.push(await time('resolveSession (every request)', iterations, () => resolveSession(db, token)));

    // Every statement issued, timed directly (no Kysely), in the order the app issues them.
    const statements: StatementTiming[] = [];
    const groups: [string, () => Promise<unknown>][] = [
      ['api list', () => listRecords(ctx, def, apiQuery)],
      ['screen list', () => listRecords(ctx, def, screenQuery)],
      ['screen formChoices', () => formChoices(ctx, def, {})],
      ['session lookup', () => resolveSession(db, token)],
    ];
    const seen = new Set<string>();
    for (const [group, fn] of groups) {
      for (const q of await captured(fn)) {
        if (seen.has(q.sql)) continue;
        seen.add(q.sql);
        const statement = database.prepare(q.sql);
        const params = q.params as unknown[];
        const timing = await time(`${group}: ${summarize(q.sql)}`, iterations, () => statement.all(...params));
        const plan = (database.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...params) as { detail: string }[]).map(
          (p) => p.detail,
        );
        statements.push({ ...timing, sql: q.sql, plan });
      }
    }
    // The raw count alone, for scale.
    const raw = database.prepare('SELECT count(*) FROM actual_expenses');
    statements.push({
      ...(await time('raw: SELECT count(*) FROM actual_expenses', iterations, () => raw.get())),
      sql: 'SELECT count(*) FROM actual_expenses',
      plan: (
        database.prepare('EXPLAIN QUERY PLAN SELECT count(*) FROM actual_expenses').all() as { detail: string }[]
      ).map((p) => p.detail),
    });

    await db.deleteFrom('userSessions').where('tokenHash', '=', hashToken(token)).execute();
    return { rows, iterations, services, statements };
  } finally {
    await db.destroy();
  }
}

function summarize(sql: string): string {
  const s = sql.replace(/\s+/g, ' ');
  if (/count\(\*\)/i.test(s)) return 'count(*)';
  const from = /from "([a-z_]+)"/i.exec(s)?.[1] ?? '?';
  if (/^select/i.test(s)) return `select from ${from}${/ limit /i.test(s) ? ' … limit' : ''}`;
  return s.slice(0, 40);
}

export function formatTimings(t: QueryTimings): string {
  const line = (x: Timing) =>
    `  ${x.name.padEnd(58)} ${x.medianMs.toFixed(2).padStart(8)} ms  (min ${x.minMs.toFixed(2)})${x.detail ? `  ${x.detail}` : ''}`;
  const out = [
    `Idle timings at ${t.rows.toLocaleString('en-US')} actual expenses (median of ${t.iterations}):`,
    ' services (through Kysely, as the app calls them):',
  ];
  for (const s of t.services) out.push(line(s));
  out.push(' statements (better-sqlite3 directly):');
  for (const s of t.statements) {
    out.push(line(s));
    for (const p of s.plan) out.push(`      plan: ${p}`);
  }
  return out.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const result = await queryTimings({
    dataDir: path.resolve(argValue(argv, 'data-dir') ?? process.env.DATA_DIR ?? DEFAULT_DATA_DIR),
    iterations: numberArg(argv, 'iterations', 30),
  });
  console.log(formatTimings(result));
  if (argv.includes('--sql')) for (const s of result.statements) console.log(`\n-- ${s.name}\n${s.sql}`);
}
