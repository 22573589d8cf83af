// The audit trail's total kept as entries are written (db/audit-counts.ts): its pages and
// /api/audit-logs no longer count every entry to say how many there are.
import type { Kysely } from 'kysely';
import { createAuditCounts } from '../audit-counts.ts';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createAuditCounts(db, d.dialect);
}
