// Everything a fresh or existing database needs before the app serves: migrations, the seed
// of an empty database, and a first owner.
import { ensureOwner, type OwnerBootstrap } from '../app/services/bootstrap.server.ts';
import type { DatabaseHandle } from './client.ts';
import { migrateToLatest } from './migrate.ts';
import { seedIfEmpty } from './seed/index.ts';

export interface PrepareOptions {
  seedDemo: boolean;
  owner: { email?: string; password?: string };
}

export async function prepareDatabase(handle: DatabaseHandle, options: PrepareOptions) {
  const migrated = await migrateToLatest(handle.db);
  const seeded = await seedIfEmpty(handle.db, { demo: options.seedDemo });
  const owner: OwnerBootstrap = await ensureOwner(handle.db, options.owner);
  return { migrated, seeded, owner };
}
