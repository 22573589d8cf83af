// The audit trail's entries per day and company kept as entries are written (db/audit-days.ts):
// any page of the trail, newest first, is read from the day it starts on, not by walking every
// entry before it.
import type { Kysely } from 'kysely';
import { createAuditDays } from '../audit-days.ts';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createAuditDays(db, d.dialect);
}
