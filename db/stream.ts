// One query's rows in batches, read by a cursor: constant memory for millions of rows and one
// consistent snapshot (CSV exports, backups). Rows come out exactly as `execute()` returns them
// (the Kysely plugins run on each batch).
// - SQLite: a separate read-only connection to the same file, so a long download never holds the
//   app's one connection (WAL lets it read beside the writer); each batch is read synchronously.
// - PostgreSQL: a pg-cursor on one pooled client, FETCHing a batch at a time (Kysely's own
//   stream inside a transaction, whose connection is already taken).
// Both read rows as arrays and make each one object with the camelCase keys worked out once per
// column: the camelCase plugin would map every row's keys into a second object (at 1M rows
// ~0.4 s plus its garbage). The other plugins run on each batch as usual; the values are never
// nested objects, so the plugin's recursion has nothing to do.
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, type CompiledQuery, type Compilable, type Kysely, type KyselyPlugin } from 'kysely';
import { TypedCursor } from './client.ts';
import { pgPoolOf, sqliteFileOf } from './registry.ts';

export { sqliteFileOf };

export async function* streamQuery<Row>(db: Kysely<any>, query: Compilable<Row>, batchSize = 1000): AsyncGenerator<Row[], void, undefined> {
  const compiled = query.compile();
  const file = sqliteFileOf(db);
  if (file) {
    yield* sqliteBatches<Row>(db, file, compiled, batchSize);
    return;
  }
  const pool = pgPoolOf(db);
  if (pool) {
    yield* postgresBatches<Row>(db, pool, compiled, batchSize);
    return;
  }
  for await (const result of db.getExecutor().stream(compiled, batchSize)) {
    if (result.rows.length) yield result.rows as Row[];
  }
}

/** Array rows into objects keyed as the camelCase plugin keys them, then the other plugins. */
function rowShaper(db: Kysely<any>, compiled: CompiledQuery) {
  const plugins = db.getExecutor().plugins;
  const camel = plugins.find((p): p is CamelCasePlugin => p instanceof CamelCasePlugin);
  const others: KyselyPlugin[] = plugins.filter((p) => p !== camel);
  // The plugin's own mapping (protected in its types, public at run time), so keys come out the same.
  const toKey = camel ? (name: string) => (camel as unknown as { camelCase(name: string): string }).camelCase(name) : (name: string) => name;
  return {
    keysOf: (names: string[]) => names.map(toKey),
    async shape(keys: string[], arrays: unknown[][]): Promise<unknown[]> {
      const rows = new Array<Record<string, unknown>>(arrays.length);
      for (let r = 0; r < arrays.length; r++) {
        const values = arrays[r];
        const row: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) row[keys[i]] = values[i];
        rows[r] = row;
      }
      let result = { rows };
      for (const plugin of others) result = (await plugin.transformResult({ result, queryId: compiled.queryId })) as typeof result;
      return result.rows;
    },
  };
}

async function* sqliteBatches<Row>(db: Kysely<any>, file: string, compiled: CompiledQuery, batchSize: number): AsyncGenerator<Row[], void, undefined> {
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  let rows: IterableIterator<unknown[]> | undefined;
  try {
    reader.pragma('busy_timeout = 5000');
    const statement = reader.prepare(compiled.sql);
    const shaper = rowShaper(db, compiled);
    const keys = shaper.keysOf(statement.columns().map((c) => c.name));
    rows = statement.raw(true).iterate(...(compiled.parameters as unknown[])) as IterableIterator<unknown[]>;
    for (;;) {
      const batch: unknown[][] = [];
      while (batch.length < batchSize) {
        const next = rows.next();
        if (next.done) break;
        batch.push(next.value);
      }
      if (batch.length === 0) return;
      yield (await shaper.shape(keys, batch)) as Row[];
      if (batch.length < batchSize) return;
    }
  } finally {
    // Ends the statement and its read transaction even when the consumer stopped early.
    rows?.return?.();
    reader.close();
  }
}

async function* postgresBatches<Row>(db: Kysely<any>, pool: import('pg').Pool, compiled: CompiledQuery, batchSize: number): AsyncGenerator<Row[], void, undefined> {
  const client = await pool.connect();
  const cursor = client.query(new TypedCursor(compiled.sql, compiled.parameters as unknown[], { rowMode: 'array' }));
  const read = () =>
    new Promise<{ rows: unknown[][]; names: string[] }>((resolve, reject) => {
      cursor.read(batchSize, (error: Error | undefined, rows: unknown[][], result?: { fields: { name: string }[] }) => {
        if (error) reject(error);
        else resolve({ rows, names: (result?.fields ?? []).map((f) => f.name) });
      });
    });
  let failed: Error | undefined;
  try {
    const shaper = rowShaper(db, compiled);
    let keys: string[] | undefined;
    for (;;) {
      const { rows, names } = await read();
      if (rows.length === 0) return;
      keys ??= shaper.keysOf(names);
      yield (await shaper.shape(keys, rows)) as Row[];
      if (rows.length < batchSize) return;
    }
  } catch (error) {
    failed = error as Error;
    throw error;
  } finally {
    // Closes the portal even when the consumer stopped early; a broken connection leaves the pool.
    await cursor.close().catch(() => {});
    client.release(failed);
  }
}
