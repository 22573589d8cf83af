import { sql, type Kysely } from 'kysely';
import { AGGREGATE_TABLES, rebuildAggregates } from '../db/aggregates.ts';

const read = async (db: Kysely<any>) => {
  const out: Record<string, unknown[]> = {};
  // Ordered by the key: company, department, category (or source) and month.
  for (const table of AGGREGATE_TABLES)
    out[table] = (
      await sql
        .raw(`select * from ${table} order by 1, 2, 3${/^(expense|budget)/.test(table) ? ', 4' : ''}`)
        .execute(db)
    ).rows;
  return out;
};

/** The month totals and plans the triggers kept (db/aggregates.ts), and the same built again from the rows (in a transaction rolled back). */
export async function aggregatesAgainstRows(
  db: Kysely<any>,
): Promise<[Record<string, unknown[]>, Record<string, unknown[]>]> {
  const kept = await read(db);
  let rebuilt: Record<string, unknown[]> = {};
  await db
    .transaction()
    .execute(async (trx) => {
      await rebuildAggregates(trx);
      rebuilt = await read(trx);
      throw new RolledBack();
    })
    .catch((error) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return [kept, rebuilt];
}

class RolledBack extends Error {}
