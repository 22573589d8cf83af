// One query's rows in batches, read by a cursor: constant memory for millions of rows and one
// consistent snapshot (CSV exports, backups). Rows come out exactly as `execute()` returns them
// (the Kysely plugins run on each batch).
// - SQLite: a separate read-only connection to the same file, so a long download never holds the
//   app's one connection (WAL lets it read beside the writer); each batch is read synchronously.
// - PostgreSQL: a pg-cursor on one pooled client (Kysely's stream), FETCHing a batch at a time.
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, type Compilable, type Kysely } from 'kysely';
import { sqliteFileOf } from './connection-facts.ts';

export { sqliteFileOf };

export async function* streamQuery<Row>(
  db: Kysely<any>,
  query: Compilable<Row>,
  batchSize = 1000,
): AsyncGenerator<Row[], void, undefined> {
  const compiled = query.compile();
  const executor = db.getExecutor();
  const file = sqliteFileOf(db);
  if (!file) {
    for await (const result of executor.stream(compiled, batchSize)) {
      if (result.rows.length) yield result.rows as Row[];
    }
    return;
  }

  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  let rows: IterableIterator<unknown[]> | undefined;
  try {
    reader.pragma('busy_timeout = 5000');
    const statement = reader.prepare(compiled.sql);
    // Rows as arrays, made into objects here with the camelCase keys worked out once per
    // column: the camelCase plugin would map every row's keys into a second object (time and
    // garbage on every row). The other plugins run on each batch as usual; SQLite values
    // are never nested objects, so the plugin's recursion has nothing to do.
    const camel = executor.plugins.find((p): p is CamelCasePlugin => p instanceof CamelCasePlugin);
    const plugins = executor.plugins.filter((p) => p !== camel);
    // The plugin's own mapping (protected in its types, public at run time), so keys come out the same.
    const toKey = camel
      ? (name: string) => (camel as unknown as { camelCase(name: string): string }).camelCase(name)
      : (name: string) => name;
    const keys = statement.columns().map((c) => toKey(c.name));
    rows = statement.raw(true).iterate(...(compiled.parameters as unknown[])) as IterableIterator<unknown[]>;
    for (;;) {
      const batch: Record<string, unknown>[] = [];
      while (batch.length < batchSize) {
        const next = rows.next();
        if (next.done) break;
        const row: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) row[keys[i]] = next.value[i];
        batch.push(row);
      }
      if (batch.length === 0) return;
      let result = { rows: batch };
      for (const plugin of plugins)
        result = (await plugin.transformResult({ result, queryId: compiled.queryId })) as typeof result;
      yield result.rows as Row[];
      if (batch.length < batchSize) return;
    }
  } finally {
    // Ends the statement and its read transaction even when the consumer stopped early.
    rows?.return?.();
    reader.close();
  }
}
