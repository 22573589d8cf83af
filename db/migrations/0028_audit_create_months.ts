// Creates in the audit trail per table, company and month, kept as entries are written
// (db/audit-create-months.ts): the integration recommendations no longer group months of the
// trail on every visit.
import type { Kysely } from 'kysely';
import { createAuditCreateMonths } from '../audit-create-months.ts';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createAuditCreateMonths(db, d.dialect);
}
