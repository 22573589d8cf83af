// The PostgreSQL schemas the tests create in the shared test database: one per test database
// (test/database.ts) and the pg-boss schemas of the job engine tests. The global teardown drops
// its own run's once every test file is done, and any an aborted run left, at start. A test
// database's schema carries the run that made it (its vitest process id, as a comment), so two
// test runs at once on one machine never drop each other's.
import pg from 'pg';
import { isProcessAlive } from '../app/platform/process.server.ts';

export const TEST_SCHEMA_PATTERN = /^(t_[0-9a-f]{12}|pgboss_test_[0-9a-f]{8}|pgboss_cli_[0-9]+)$/;

/** The environment variable naming the test run (set by the global setup, inherited by the test workers). */
export const TEST_RUN_VARIABLE = 'FINHUB_TEST_RUN';
const RUN_COMMENT = /^finhub-test-run:(\d+)$/;

/** The comment a test schema gets: the run it belongs to. */
export const runComment = () =>
  process.env[TEST_RUN_VARIABLE] ? `finhub-test-run:${process.env[TEST_RUN_VARIABLE]}` : null;

/** Drops the test schemas of this run and of runs that are over (a schema of another live run stays). */
export async function dropTestSchemas(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; comment: string | null }>(
      "select nspname as name, obj_description(oid, 'pg_namespace') as comment from pg_namespace",
    );
    const names = rows
      .filter((r) => TEST_SCHEMA_PATTERN.test(r.name))
      .filter((r) => {
        const run = Number(RUN_COMMENT.exec(r.comment ?? '')?.[1]);
        return !run || run === process.pid || !isProcessAlive(run);
      })
      .map((r) => r.name);
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
