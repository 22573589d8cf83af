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

/**
 * The environment variable naming a prepared SQLite file (migrated, seeded, owner created) that
 * the global setup makes once per run (test/global-setup.ts): a prepared SQLite database starts
 * as a copy of it instead of running the migrations again.
 */
export const SQLITE_TEMPLATE_VARIABLE = 'FINHUB_TEST_SQLITE_TEMPLATE';

/** `copyOf`: a SQLite file the new database starts as a copy of. */
export async function createTestDatabase(dialect: DialectName, copyOf?: string): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-test-'));
  if (dialect === 'sqlite') {
    if (copyOf) fs.copyFileSync(copyOf, path.join(dataDir, 'finhub.db'));
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
  const template = process.env[SQLITE_TEMPLATE_VARIABLE];
  const copyOf = dialect === 'sqlite' && template && fs.existsSync(template) ? template : undefined;
  const database = await createTestDatabase(dialect, copyOf);
  // On a copy of the template this finds everything done and changes nothing.
  await prepareTestDatabase(database);
  return database;
}

export function prepareTestDatabase(database: Pick<DatabaseHandle, 'db'>) {
  return prepareDatabase(database, {
    seedDemo: false,
    owner: { email: 'owner@example.com', password: OWNER_PASSWORD },
  });
}

export const OWNER_PASSWORD = 'Owner-Password-1';
