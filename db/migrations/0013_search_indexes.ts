// Substring search over the big tables through trigram indexes: an FTS5 table kept by
// triggers on SQLite, a pg_trgm GIN index on PostgreSQL (db/search-index.ts); and on PostgreSQL
// the amount sort's index with the id tie-break.
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';
import { createSearchIndex, SEARCH_INDEXES } from '../search-index.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  for (const index of Object.values(SEARCH_INDEXES)) await createSearchIndex(db, d.dialect, index);
  // Sorting by amount ends with id (resolveSort): on PostgreSQL an index without it cannot give
  // that order, and a deep page by amount sorted the whole table. SQLite's
  // index already ends with the rowid.
  if (d.dialect === 'postgres') {
    await db.schema
      .createIndex('actual_expenses_amount_cents_id_idx')
      .on('actual_expenses')
      .columns(['amount_cents', 'id'])
      .execute();
    await db.schema.dropIndex('actual_expenses_amount_cents_idx').execute();
  }
}
