// System Monitoring's error tracking: each system error gets a fingerprint (its type,
// endpoint and message with the varying parts such as ids and numbers taken out), so repeats of
// one fault count as occurrences of one row whatever id or figure their message names.
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema.alterTable('system_errors').addColumn('fingerprint', 'varchar(64)').execute();
  await db.schema
    .createIndex('system_errors_fingerprint_idx')
    .on('system_errors')
    .columns(['fingerprint', 'is_resolved'])
    .execute();
}
