// Real databases for tests: a fresh SQLite file, or a fresh schema in TEST_DATABASE_URL.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, type DatabaseHandle } from '../db/client.ts';
import type { DialectName } from '../db/dialect.ts';
import { prepareDatabase } from '../app/features/system/bootstrap.server.ts';
import { missingPostgresInCi } from './ci.ts';
import { runComment } from './schemas.ts';

const missingPostgres = missingPostgresInCi();
if (missingPostgres) throw new Error(missingPostgres);

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (required under CI=true). */
export const TEST_DIALECTS: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase extends DatabaseHandle {
  /** What DATABASE_URL / DATA_DIR a separate process would need to reach the same data. */
  url?: string;
  dataDir: string;
  destroy(): Promise<void>;
}

export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-test-'));
  if (dialect === 'sqlite') {
    const handle = createDatabase({ dataDir });
    return {
      ...handle,
      dataDir,
      destroy: async () => {
        await handle.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const comment = runComment();
  if (comment) await admin.query(`comment on schema ${schema} is '${comment}'`);
  await admin.end();
  const url = new URL(base);
  // A test schema is thrown away: commits need not wait for the disk (a crash loses the last
  // commits, never consistency). The fault suite and the benches keep durable commits.
  url.searchParams.set('options', `-c search_path=${schema} -c synchronous_commit=off`);
  const handle = createDatabase({ url: url.toString(), poolSize: 5 });
  return {
    ...handle,
    url: url.toString(),
    dataDir,
    // The schema is dropped by the global teardown (test/global-setup.ts), not here: a drop
    // while another test file migrates breaks Kysely's introspection, which reads every schema.
    destroy: async () => {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A migrated and seeded test database (reference data only, no demo figures, no owner). */
export async function createPreparedDatabase(dialect: DialectName): Promise<TestDatabase> {
  const database = await createTestDatabase(dialect);
  await prepareDatabase(database, { seedDemo: false, owner: { email: 'owner@example.com', password: OWNER_PASSWORD } });
  return database;
}

export const OWNER_PASSWORD = 'Owner-Password-1';
