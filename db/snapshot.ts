// One consistent view of several tables, read at constant memory: what a backup needs so that
// a row never refers to one the backup does not hold (an expense written between reading the
// categories and the expenses).
// - SQLite: a separate read-only connection in one read transaction (WAL lets it read beside the
//   writer); rows come straight from better-sqlite3 as arrays.
// - PostgreSQL: one REPEATABLE READ, READ ONLY transaction; each table read by a cursor.
// Rows come out as arrays in the order of the columns asked for, with SQLite's 0/1 and JSON text
// turned into booleans and values, so both dialects give the same rows.
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialect.ts';
import { sqliteFileOf } from './connection-facts.ts';
import { BOOLEAN_COLUMNS, JSON_COLUMNS } from './types.ts';

export interface Snapshot {
  count(table: string): Promise<number>;
  /** The table's rows ordered by id, in batches; `columns` are camelCase. */
  rows(table: string, columns: readonly string[], batchSize?: number): AsyncGenerator<unknown[][]>;
}

/** 'actualExpenses' → 'actual_expenses' (the CamelCasePlugin's mapping). */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Values as Kysely with its plugins would give them (camelCase column names decide). */
function normaliser(columns: readonly string[]): ((row: unknown[]) => unknown[]) | null {
  const booleans = columns.flatMap((c, i) => (BOOLEAN_COLUMNS.has(c) ? [i] : []));
  const json = columns.flatMap((c, i) => (JSON_COLUMNS.has(c) ? [i] : []));
  if (booleans.length === 0 && json.length === 0) return null;
  return (row) => {
    for (const i of booleans) if (typeof row[i] === 'number') row[i] = row[i] !== 0;
    for (const i of json) if (typeof row[i] === 'string') row[i] = JSON.parse(row[i] as string);
    return row;
  };
}

function selectSql(table: string, columns: readonly string[]): string {
  return `select ${columns.map((c) => quote(snakeCase(c))).join(', ')} from ${quote(snakeCase(table))} order by id`;
}

export async function withSnapshot<T>(db: Kysely<any>, fn: (snapshot: Snapshot) => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgres') return postgresSnapshot(db, fn);
  // Else the file from the connection itself (an instance createDatabase did not open).
  const file =
    sqliteFileOf(db) ??
    (await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db)).rows[0]?.file;
  if (!file) throw new Error('withSnapshot: an in-memory SQLite database has no file to read a snapshot from');
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    reader.pragma('busy_timeout = 5000');
    reader.exec('begin');
    // The read transaction (and so the snapshot) starts with the first read.
    reader.prepare('select count(*) from sqlite_master').get();
    const snapshot: Snapshot = {
      async count(table) {
        return Number(
          (reader.prepare(`select count(*) as n from ${quote(snakeCase(table))}`).get() as { n: number }).n,
        );
      },
      async *rows(table, columns, batchSize = 2000) {
        const normalise = normaliser(columns);
        const iterator = reader.prepare(selectSql(table, columns)).raw(true).iterate() as IterableIterator<unknown[]>;
        try {
          let batch: unknown[][] = [];
          for (const row of iterator) {
            batch.push(normalise ? normalise(row) : row);
            if (batch.length >= batchSize) {
              yield batch;
              batch = [];
            }
          }
          if (batch.length) yield batch;
        } finally {
          iterator.return?.();
        }
      },
    };
    const result = await fn(snapshot);
    reader.exec('commit');
    return result;
  } finally {
    reader.close();
  }
}

async function postgresSnapshot<T>(db: Kysely<any>, fn: (snapshot: Snapshot) => Promise<T>): Promise<T> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      await sql`set transaction read only`.execute(trx);
      const executor = trx.getExecutor();
      return fn({
        async count(table) {
          const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(snakeCase(table))}`.execute(
            trx,
          );
          return Number(rows[0].n);
        },
        async *rows(table, columns, batchSize = 2000) {
          const query = sql.raw(selectSql(table, columns)).compile(trx);
          // The executor's plugins name the columns in camelCase; pg already gives booleans and JSON.
          for await (const result of executor.stream(query, batchSize)) {
            if (result.rows.length)
              yield (result.rows as Record<string, unknown>[]).map((row) => columns.map((c) => row[c]));
          }
        },
      });
    });
}
