// Kysely client factory: SQLite file by default, PostgreSQL when given a postgres:// URL.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import { pgInstantToIso } from './pg-instant.ts';
import type { Database } from './types.ts';
import type { DialectName } from './dialect.ts';
import { SqlitePortablePlugin } from './portable.ts';
import { ConnectionFacts } from './connection-facts.ts';
import Cursor from 'pg-cursor';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Human-readable location without credentials, for logs and the system page. */
  location: string;
  /** SQLite: the open file and its path (the web process checkpoints it in the background). */
  sqlite?: { database: SQLite.Database; file: string };
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… for PostgreSQL; empty for the embedded SQLite file. */
  url?: string;
  /** Directory of the SQLite file (finhub.db). */
  dataDir?: string;
  /** Explicit SQLite file path (tests, restores). Overrides dataDir. */
  sqliteFile?: string;
  poolSize?: number;
}

const PG_OIDS = { int8: 20, numeric: 1700, date: 1082, timestamp: 1114, timestamptz: 1184 };

/** Per-pool type parsers: numbers as numbers, instants as ISO strings, days as YYYY-MM-DD. */
const pgTypes = {
  getTypeParser(oid: number, format?: any) {
    switch (oid) {
      case PG_OIDS.int8:
      case PG_OIDS.numeric:
        return (v: string) => (v === null ? null : Number(v));
      case PG_OIDS.date:
        return (v: string) => v;
      case PG_OIDS.timestamptz:
        return (v: string) => (v === null ? null : pgInstantToIso(v));
      case PG_OIDS.timestamp:
        return (v: string) => (v === null ? null : new Date(`${v.replace(' ', 'T')}Z`).toISOString());
      default:
        return pg.types.getTypeParser(oid, format);
    }
  },
};

/** Kysely creates cursors without the pool's type parsers: give them the same ones. */
class TypedCursor extends Cursor {
  constructor(text: string, values: unknown[], config: Cursor.CursorQueryConfig = {}) {
    super(text, values, { ...config, types: pgTypes });
  }
}

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

export function createDatabase(options: DatabaseOptions = {}): DatabaseHandle {
  if (isPostgresUrl(options.url)) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      types: pgTypes,
    });
    // A connection the server ends (a restart, a failover, pg_terminate_backend) must not crash
    // the process. pg reports it as an 'error' event: the pool's for an idle client, the client's
    // own while it is checked out between two queries (in a transaction, a streamed export),
    // where nobody else listens. The query that runs on it fails on its own; the pool replaces
    // the connection.
    pool.on('error', () => {});
    pool.on('connect', (client) =>
      client.on('error', (err) => console.error('[db] PostgreSQL connection lost:', err.message)),
    );
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool, cursor: TypedCursor }),
      plugins: [new CamelCasePlugin(), new ConnectionFacts({ pgPool: pool })],
    });
    const u = new URL(options.url);
    return {
      db,
      dialect: 'postgres',
      location: `postgres://${u.hostname}:${u.port || 5432}${u.pathname}`,
      // Kysely ends the pool only if it ever used it: a run that reached the pool directly
      // (a COPY export, a restore) would otherwise keep an idle client open for pg's 10 s.
      close: async () => {
        await db.destroy();
        if (!pool.ending) await pool.end();
      },
    };
  }

  const file = options.sqliteFile ?? path.join(options.dataDir ?? './data', 'finhub.db');
  // DATA_DIR is private (docs/security.md): 0700; the file and its WAL follow the process umask (077).
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = FULL');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }),
    plugins: [
      new CamelCasePlugin(),
      new SqlitePortablePlugin(),
      new ConnectionFacts({ sqliteFile: path.resolve(file) }),
    ],
  });
  return {
    db,
    dialect: 'sqlite',
    location: path.resolve(file),
    sqlite: { database, file: path.resolve(file) },
    close: () => db.destroy(),
  };
}

/**
 * Transactions start with BEGIN IMMEDIATE. Kysely's plain BEGIN is deferred: a transaction that
 * reads and then writes must upgrade its lock, and in WAL mode that fails at once with
 * SQLITE_BUSY (no busy_timeout wait) when another process (the CLI, a test fixture) committed in
 * between. Taking the write lock at BEGIN makes the other side wait its busy_timeout instead.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/**
 * Kysely prepares every statement again on each execution; better-sqlite3 statements can be
 * reused, and the app runs the same few hundred SQL texts over and over. Kysely holds the one
 * connection for a whole query (and a whole stream), so a cached statement is never in use twice.
 */
function withStatementCache(database: SQLite.Database, size = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement) {
        // Most recently used last, so the oldest is evicted first.
        cache.delete(text);
      } else {
        statement = database.prepare(text);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

/** Round trip to the database (readiness checks). */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
