// Seeding an empty database: one module per area, run in this order. Later areas append
// their module (demo figures check `demo`).
import type { Kysely } from 'kysely';
import type { Database } from '../types.ts';
import type { SeedModule, SeedOptions } from './define.ts';
import { companyMetricsSeed } from './company-metrics.ts';
import { demoSeed } from './demo.ts';
import { referenceSeed } from './reference.ts';

export const seedModules: SeedModule[] = [referenceSeed, demoSeed, companyMetricsSeed];

/** Seeds only a database without companies; returns the modules that ran. */
export async function seedIfEmpty(db: Kysely<Database>, options: SeedOptions): Promise<string[]> {
  const any = await db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  if (any) return [];
  return db.transaction().execute(async (trx) => {
    for (const module of seedModules) await module.run(trx, options);
    return seedModules.map((m) => m.name);
  });
}
