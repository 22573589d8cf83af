// Two-factor sign-in (docs/security.md):
// - user_two_factor: a user's authenticator secret, sealed under ENCRYPTION_KEY (key id beside
//   it), the last time step a code was accepted for (a code works once), and the SHA-256 hashes of
//   the unused recovery codes. enabled_at is null while the user is still confirming the setup.
// - two_factor_challenges: a sign-in whose password was right and whose second factor is still
//   to come, known by the hash of a random token; it opens nothing and ends after 5 minutes or
//   5 wrong codes.
// - system_settings: the installation's one row of policy (whether owners and admins must use
//   two-factor).
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('user_two_factor')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('key_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('enabled_at', d.instant)
    .addColumn('last_used_step', d.bigint)
    .addColumn('recovery_hashes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();

  await db.schema
    .createTable('two_factor_challenges')
    .addColumn('id', 'integer', d.id)
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('remember_me', d.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('ip_address', 'varchar(100)')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('expires_at', d.instant, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('two_factor_challenges_expires')
    .on('two_factor_challenges')
    .column('expires_at')
    .execute();
  await db.schema.createIndex('two_factor_challenges_user').on('two_factor_challenges').column('user_id').execute();

  await db.schema
    .createTable('system_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('require_two_factor_for_admins', d.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.insertInto('system_settings').values({ id: 1 }).execute();
}
