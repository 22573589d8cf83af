// The PostgreSQL schemas the tests create in the shared test database: one per test database
// (test/database.ts) and the pg-boss schemas of the job engine tests. They are all dropped by
// the global teardown once every test file is done (and any left by an aborted run, at start).
import pg from 'pg';

export const TEST_SCHEMA_PATTERN = /^(t_[0-9a-f]{12}|pgboss_test_[0-9a-f]{8}|pgboss_cli_[0-9]+)$/;

export async function dropTestSchemas(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('select nspname as name from pg_namespace');
    const names = rows.map((r) => r.name).filter((name) => TEST_SCHEMA_PATTERN.test(name));
    // One schema per statement: dropping them all at once would take more locks than PostgreSQL keeps.
    for (const name of names) await client.query(`drop schema if exists "${name}" cascade`);
    return names.length;
  } finally {
    await client.end();
  }
}

/**
 * The extensions the migrations use (pg_trgm, db/search-index.ts), installed once before the
 * test files run: two migrations creating one at the same moment would collide.
 */
export async function installExtensions(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_trgm with schema public');
  } finally {
    await client.end();
  }
}
