// Where Kysely's types cannot follow the code, the one place they are set aside, each for one
// reason: tables named at run time (a declaration's table, the table of an audit entry), a
// statement's named subqueries that only its raw SQL reads, and one pg connection as a pool.
import type { Kysely, PostgresPool, PostgresPoolClient, QueryCreator } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Db } from './context.ts';

/** A row of a table named at run time (camelCase columns). */
export type Row = Record<string, unknown>;
/** The database seen as tables named at run time. */
export type DynamicDb = Kysely<Record<string, Row>>;

/** The same database (or transaction), its tables reached by names chosen at run time. */
export function dynamic(db: Db): DynamicDb {
  return db as unknown as DynamicDb;
}

/**
 * A query creator over the database and more (`db.with(…)`) as one over the database alone,
 * where it stands in for the database handle: the extra names are read by raw SQL only.
 */
export function databaseQueries<DB extends Database>(creator: QueryCreator<DB>): QueryCreator<Database> {
  return creator as unknown as QueryCreator<Database>;
}

/**
 * One connection as a Kysely pool: every statement runs on it, and ending the pool ends nothing
 * (its owner releases the connection). Kysely reads a pool's options only to cancel a statement
 * from a second connection, which this pool never opens.
 */
export function singleConnectionPool(client: PostgresPoolClient): PostgresPool {
  const pool: Omit<PostgresPool, 'options'> = { connect: async () => client, end: async () => {} };
  return pool as PostgresPool;
}
