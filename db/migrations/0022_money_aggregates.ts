// Money figures kept by triggers (db/aggregates.ts): expense and revenue totals per month, and the
// one plan of each month from budgets and revenue projections, so dashboards, editor screens,
// budget analysis, predictions and the AI chat read small tables instead of the books.
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';
import { createAggregates } from '../aggregates.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createAggregates(db, d.dialect);
}
