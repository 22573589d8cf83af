// Explicit migration list: no file discovery at run time. Append new migrations; never edit
// one that has landed.
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';
import * as m0001 from './0001_foundation.ts';

export interface DialectMigration {
  up(db: Kysely<any>, d: DialectHelpers): Promise<void>;
  down?(db: Kysely<any>, d: DialectHelpers): Promise<void>;
}

export const migrations: Record<string, DialectMigration> = {
  '0001_foundation': m0001,
};
