// The figures the database keeps by triggers (docs/kept-counts.md) against counts of the rows,
// and SQLite's own consistency checks: what must hold after any crash.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

/** Differences between the kept expense and audit counts and count(*); empty when they agree. */
export async function keptCountProblems(db: Kysely<Database>): Promise<string[]> {
  const problems: string[] = [];
  const kept = await db
    .selectFrom('rowCounts')
    .select(['companyId', 'rowCount'])
    .where('tableName', '=', 'actual_expenses')
    .execute();
  const counted = await db
    .selectFrom('actualExpenses')
    .select(['companyId', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('companyId')
    .execute();
  const keptBy = new Map(kept.map((r) => [Number(r.companyId), Number(r.rowCount)]));
  for (const row of counted) {
    const k = keptBy.get(Number(row.companyId)) ?? 0;
    if (k !== Number(row.n))
      problems.push(`row_counts of actual_expenses, company ${row.companyId}: ${k} kept, ${row.n} rows`);
  }
  const keptAudit = await db
    .selectFrom('auditCounts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('entries'), sql<number>`0`).as('n'))
    .executeTakeFirstOrThrow();
  const audit = await db
    .selectFrom('auditLogs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(keptAudit.n) !== Number(audit.n))
    problems.push(`audit_counts: ${keptAudit.n} kept, ${audit.n} audit entries`);
  return problems;
}

/** PRAGMA integrity_check and foreign_key_check of a SQLite database: empty when both pass. */
export async function sqliteCheckProblems(db: Kysely<Database>): Promise<string[]> {
  const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
  const problems = integrity.rows.map((r) => Object.values(r)[0] as string).filter((v) => v !== 'ok');
  const foreign = await sql<Record<string, unknown>>`pragma foreign_key_check`.execute(db);
  for (const row of foreign.rows) problems.push(`foreign key: ${JSON.stringify(row)}`);
  return problems;
}
