// PostgreSQL searches read a search table instead of the GIN index over the table's own text
// (db/search-index.ts): the text lowercased once when written, so a match is a plain
// LIKE instead of ILIKE lowercasing every candidate again, and a search with no other condition
// reads only that narrow table. Databases that ran 0013 before the search tables existed get
// theirs here and lose the old index; newer ones got theirs from 0013. SQLite is unchanged.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';
import { createSearchIndex, ftsTable, SEARCH_INDEXES } from '../search-index.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  if (d.dialect !== 'postgres') return;
  for (const index of Object.values(SEARCH_INDEXES)) {
    await sql.raw(`drop index if exists ${index.table}_search_idx`).execute(db);
    const { rows } = await sql<{
      present: boolean;
    }>`select to_regclass(${ftsTable(index)}) is not null as present`.execute(db);
    if (!rows[0].present) await createSearchIndex(db, d.dialect, index);
  }
}
