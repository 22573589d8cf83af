// Whether the expenses changed since a result was computed from them, in one cheap lookup: a
// token that every write of actual_expenses replaces in its own transaction, so two reads of
// the same token saw the same rows.
// - PostgreSQL: change_tokens (migration 0014), replaced by every statement and by restores and
//   `finhub db generate`, which load with the triggers off.
// - SQLite: change_counters (migration 0023), bumped by every row written, plus the schema
//   version: loads that drop the table's triggers for speed (bulk restores, generate) change
//   the schema, so they change the token too.
import { sql } from 'kysely';
import { dialectOf } from '../../../db/dialect.ts';
import type { Db } from '../../platform/context.ts';

export async function expensesToken(db: Db): Promise<string> {
  if (dialectOf(db) === 'postgres') {
    const row = await db
      .selectFrom('changeTokens')
      .select('token')
      .where('tableName', '=', 'actual_expenses')
      .executeTakeFirst();
    return `pg:${row?.token ?? 'none'}`;
  }
  const row = await db
    .selectFrom('changeCounters')
    .select('counter')
    .where('tableName', '=', 'actual_expenses')
    .executeTakeFirst();
  const { rows } = await sql<Record<string, number>>`pragma schema_version`.execute(db);
  return `sqlite:${row?.counter ?? 'none'}:${Object.values(rows[0] ?? {})[0] ?? 0}`;
}
