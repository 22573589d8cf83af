import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types.ts';

/** The kept audit entries per day and company (db/audit-days.ts), and the same counted from the trail. */
export async function auditDaysKeptAndCounted(db: Kysely<Database>, dialect: string): Promise<[unknown[], unknown[]]> {
  const kept = await db
    .selectFrom('auditDays')
    .select(['day', 'companyId', 'entries'])
    .where('entries', '!=', 0)
    .orderBy('day')
    .orderBy('companyId')
    .execute();
  const day =
    dialect === 'postgres' ? sql`to_char(timestamp at time zone 'UTC', 'YYYY-MM-DD')` : sql`substr(timestamp, 1, 10)`;
  const { rows } = await sql<{ day: string; companyId: number; entries: number }>`
    select ${day} as day, coalesce(company_id, 0) as company_id, count(*) as entries from audit_logs group by 1, 2 order by 1, 2`.execute(
    db,
  );
  const shape = (r: { day: string; companyId: number; entries: number }) => [
    r.day,
    Number(r.companyId),
    Number(r.entries),
  ];
  return [kept.map(shape), rows.map(shape)];
}
