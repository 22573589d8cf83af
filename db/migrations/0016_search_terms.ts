// PostgreSQL search tables keep the values that repeat (a vendor, a description) once, in a
// dictionary, and the keys a search matches by name (department, category), each under a btree
// index that also holds the sort keys: a search then finds a few values and reads their rows'
// keys from an index, instead of visiting every match's row (db/search-index.ts).
// Databases whose search table has the older shape (0015) get the new one; SQLite is unchanged.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';
import { createSearchIndex, dropPostgresSearchTable, SEARCH_INDEXES, termsTable } from '../search-index.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  if (d.dialect !== 'postgres') return;
  for (const index of Object.values(SEARCH_INDEXES)) {
    const { rows } = await sql<{
      present: boolean;
    }>`select to_regclass(${termsTable(index)}) is not null as present`.execute(db);
    if (rows[0].present) continue;
    await dropPostgresSearchTable(db, index);
    await createSearchIndex(db, d.dialect, index);
  }
}
