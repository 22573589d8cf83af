// What a fresh or existing database needs before the app serves: migrations, the seed of an
// empty database, and a first owner account so somebody can sign in.
import type { DatabaseHandle } from '../../../db/client.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { seedIfEmpty } from '../../../db/seed/index.ts';
import { inTransaction, systemActor, type Db } from '../../platform/context.ts';
import { writeRecord } from '../../platform/audit.server.ts';
import { createUserSettingsRow } from '../../../db/user-settings-rows.ts';
import { createRuntime } from '../../platform/runtime.ts';
import { generateTemporaryPassword, hashPassword } from '../auth/index.server.ts';
import { REASONS } from '../../platform/audit-reasons.ts';

export const DEFAULT_OWNER_EMAIL = 'owner@example.com';

export interface OwnerBootstrap {
  created: boolean;
  email?: string;
  /** Only when generated: shown once, must be changed at first sign-in. */
  temporaryPassword?: string;
}

export async function ensureOwner(db: Db, given: { email?: string; password?: string }): Promise<OwnerBootstrap> {
  const existing = await db.selectFrom('users').select('id').where('role', '=', 'owner').limit(1).executeTakeFirst();
  if (existing) return { created: false };
  const email = (given.email ?? DEFAULT_OWNER_EMAIL).toLowerCase();
  const temporaryPassword = given.password ? undefined : generateTemporaryPassword();
  const passwordHash = await hashPassword(given.password ?? temporaryPassword!);
  // The account and its settings row (the defaults) together, or neither.
  await inTransaction(db, async (trx) => {
    const owner = await writeRecord(
      // Before the process starts its job engine: nothing is sent from here.
      { db: trx, actor: systemActor(), meta: {}, runtime: createRuntime() },
      'users',
      {
        action: 'create',
        values: {
          username: email.split('@')[0] || 'owner',
          email,
          passwordHash,
          role: 'owner',
          fullName: 'System Owner',
          isTemporaryPassword: !given.password,
          isActive: true,
        },
      },
      { reason: REASONS.firstOwner },
    );
    await createUserSettingsRow(trx, owner.id);
  });
  return { created: true, email, temporaryPassword };
}

export interface PrepareOptions {
  seedDemo: boolean;
  owner: { email?: string; password?: string };
}

export async function prepareDatabase(handle: Pick<DatabaseHandle, 'db'>, options: PrepareOptions) {
  const migrated = await migrateToLatest(handle.db);
  const seeded = await seedIfEmpty(handle.db, { demo: options.seedDemo });
  const owner = await ensureOwner(handle.db, options.owner);
  return { migrated, seeded, owner };
}
