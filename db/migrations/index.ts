// Explicit migration list: no file discovery at run time. Append new migrations; never edit
// one that has landed.
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';
import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_finance.ts';
import * as m0003 from './0003_row_counts.ts';
import * as m0004 from './0004_jobs.ts';

export interface DialectMigration {
  up(db: Kysely<any>, d: DialectHelpers): Promise<void>;
  down?(db: Kysely<any>, d: DialectHelpers): Promise<void>;
}

export const migrations: Record<string, DialectMigration> = {
  '0001_foundation': m0001,
  '0002_finance': m0002,
  '0003_row_counts': m0003,
  '0004_jobs': m0004,
};
