// The audit entries (creates and updates) per signed-in user kept as entries are written
// (db/audit-user-counts.ts): My Dashboard's all-time totals without counting a user's history.
import type { Kysely } from 'kysely';
import { createAuditUserCounts } from '../audit-user-counts.ts';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createAuditUserCounts(db, d.dialect);
}
