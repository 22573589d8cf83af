// PostgreSQL: rows per company and day of the big tables (db/day-counts.ts), so that a deep page
// of a list sorted by date starts where it should without walking the date index, also right
// after a write. SQLite is unchanged.
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';
import { createDayCounts } from '../day-counts.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  if (d.dialect === 'postgres') await createDayCounts(db);
}
