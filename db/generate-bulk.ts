// Bulk writes for the generator's people and history (db/generate-activity.ts): the same few
// operations on better-sqlite3 and pg, rows buffered per table and written in batches. SQLite:
// multi-row INSERTs in a transaction per batch, no fsync per batch (generated data; the final
// checkpoint makes it durable). PostgreSQL: INSERT … SELECT FROM unnest in one transaction for
// the whole load, then VACUUM (ANALYZE).
import SQLite from 'better-sqlite3';
import pg from 'pg';

export type Cell = number | string | boolean | null;
export type ColumnType = 'int' | 'bigint' | 'text' | 'jsonb' | 'timestamptz' | 'date' | 'boolean';

/** A table written: its columns, in the order of each row's cells. */
export interface Sink {
  table: string;
  columns: [string, ColumnType][];
}

/** An audit entry as the app stores it (columns in the order of the cells). */
export const AUDIT_SINK: Sink = {
  table: 'audit_logs',
  columns: [
    ['table_name', 'text'],
    ['record_id', 'int'],
    ['action', 'text'],
    ['old_data', 'jsonb'],
    ['new_data', 'jsonb'],
    ['changes', 'jsonb'],
    ['user_id', 'int'],
    ['actor_label', 'text'],
    ['timestamp', 'timestamptz'],
    ['ip_address', 'text'],
    ['user_agent', 'text'],
    ['reason', 'text'],
    ['session_id', 'text'],
    ['company_id', 'int'],
  ],
};
/** A record version as the app stores it. */
export const VERSIONS_SINK: Sink = {
  table: 'data_versions',
  columns: [
    ['table_name', 'text'],
    ['record_id', 'int'],
    ['version', 'int'],
    ['data', 'jsonb'],
    ['created_by', 'int'],
    ['created_at', 'timestamptz'],
    ['action', 'text'],
    ['comment', 'text'],
    ['is_active', 'boolean'],
    ['company_id', 'int'],
  ],
};

const FLUSH = 5000;
/** SQLite: rows per multi-row INSERT (× ≤ 20 columns, far below the parameter limit). */
const ROWS_PER_STATEMENT = 100;

export interface Conn {
  all(text: string, params?: Cell[]): Promise<Record<string, unknown>[]>;
  run(text: string, params?: Cell[]): Promise<void>;
  insert(sink: Sink, rows: Cell[][]): Promise<void>;
  /** Drops the table's secondary indexes; returns what re-creates them. */
  dropIndexes(table: string): Promise<string[]>;
  /** Turns the table's own triggers off; returns what turns them on again. */
  dropTriggers(table: string): Promise<string[]>;
  end(ok: boolean): Promise<void>;
}

export function sqliteConn(file: string): Conn {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  // Generated data: no fsync per batch; the final checkpoint makes it durable.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const statements = new Map<string, SQLite.Statement>();
  const prepare = (text: string) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    return statement;
  };
  const bind = (params: Cell[]) => params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
  return {
    async all(text, params = []) {
      return prepare(text).all(bind(params)) as Record<string, unknown>[];
    },
    async run(text, params = []) {
      prepare(text).run(bind(params));
    },
    async insert(sink, rows) {
      const names = sink.columns.map(([name]) => name).join(', ');
      const tuple = `(${sink.columns.map(() => '?').join(', ')})`;
      const many = prepare(
        `INSERT INTO ${sink.table} (${names}) VALUES ${Array(ROWS_PER_STATEMENT).fill(tuple).join(', ')}`,
      );
      const one = prepare(`INSERT INTO ${sink.table} (${names}) VALUES ${tuple}`);
      db.transaction(() => {
        let i = 0;
        for (; i + ROWS_PER_STATEMENT <= rows.length; i += ROWS_PER_STATEMENT)
          many.run(bind(rows.slice(i, i + ROWS_PER_STATEMENT).flat()));
        for (; i < rows.length; i++) one.run(bind(rows[i]));
      })();
    },
    async dropIndexes(table) {
      const indexes = db
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
        .all(table) as { name: string; sql: string }[];
      for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
      return indexes.map((i) => i.sql);
    },
    async dropTriggers(table) {
      const triggers = db
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?")
        .all(table) as { name: string; sql: string }[];
      for (const trigger of triggers) db.exec(`DROP TRIGGER "${trigger.name}"`);
      return triggers.map((t) => t.sql);
    },
    async end() {
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}

/** Dates and instants as the app returns them (YYYY-MM-DD, ISO UTC), 64-bit integers as numbers. */
const PG_TYPES = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 1082) return (value: string) => value;
    if (oid === 1184 || oid === 1114) return (value: string) => new Date(value).toISOString();
    if (oid === 20) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export async function postgresConn(url: string): Promise<Conn> {
  const client = new pg.Client({ connectionString: url, types: PG_TYPES as pg.CustomTypesConfig });
  await client.connect();
  await client.query('BEGIN');
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  return {
    async all(text, params = []) {
      return (await client.query(numbered(text), params)).rows;
    },
    async run(text, params = []) {
      await client.query(numbered(text), params);
    },
    async insert(sink, rows) {
      const columns: Cell[][] = sink.columns.map(() => new Array(rows.length));
      for (let r = 0; r < rows.length; r++) for (let c = 0; c < sink.columns.length; c++) columns[c][r] = rows[r][c];
      const unnest = sink.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
      await client.query(
        `INSERT INTO ${sink.table} (${sink.columns.map(([name]) => name).join(', ')}) SELECT * FROM unnest(${unnest})`,
        columns,
      );
    },
    async dropIndexes(table) {
      const { rows } = await client.query<{ indexname: string; indexdef: string }>(
        `SELECT i.indexname, i.indexdef FROM pg_indexes i
          WHERE i.schemaname = current_schema() AND i.tablename = $1
            AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
        [table],
      );
      for (const index of rows) await client.query(`DROP INDEX "${index.indexname}"`);
      return rows.map((r) => r.indexdef);
    },
    async dropTriggers(table) {
      const { rows } = await client.query(
        `SELECT 1 FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal`,
        [table],
      );
      if (!rows.length) return [];
      await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
      return [`ALTER TABLE ${table} ENABLE TRIGGER USER`];
    },
    async end(ok) {
      try {
        await client.query(ok ? 'COMMIT' : 'ROLLBACK');
        if (ok)
          for (const table of ['users', 'audit_logs', 'data_versions', 'notifications', 'user_notification_settings'])
            await client.query(`VACUUM (ANALYZE) ${table}`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Buffers rows per table and writes them in batches. */
export class Writer {
  private readonly buffers = new Map<Sink, Cell[][]>();
  readonly written = new Map<string, number>();
  private readonly conn: Conn;
  private readonly progress: (table: string, done: number) => void;
  constructor(conn: Conn, progress: (table: string, done: number) => void) {
    this.conn = conn;
    this.progress = progress;
  }
  async push(sink: Sink, row: Cell[]): Promise<void> {
    let buffer = this.buffers.get(sink);
    if (!buffer) this.buffers.set(sink, (buffer = []));
    buffer.push(row);
    if (buffer.length >= FLUSH) await this.flush(sink);
  }
  async flush(sink?: Sink): Promise<void> {
    for (const [s, rows] of this.buffers) {
      if ((sink && s !== sink) || rows.length === 0) continue;
      await this.conn.insert(s, rows);
      const done = (this.written.get(s.table) ?? 0) + rows.length;
      this.written.set(s.table, done);
      this.progress(s.table, done);
      rows.length = 0;
    }
  }
}
