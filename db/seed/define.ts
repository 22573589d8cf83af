// What one seed module declares: a name and what it writes into an empty database.
import type { Kysely } from 'kysely';
import type { Database } from '../types.ts';

export interface SeedOptions {
  /** Demo figures (36 months per company); off with SEED_DEMO=0. */
  demo: boolean;
}

export interface SeedModule {
  name: string;
  run(db: Kysely<Database>, options: SeedOptions): Promise<void>;
}
