// What createDatabase knows about a Kysely instance beyond Kysely itself: the SQLite file (for
// readers beside the app's one connection) or the PostgreSQL pool (for a dedicated connection).
// Kept on globalThis: the Remix build bundles its own copy of this module, and routes must find
// what server.ts's copy registered.
import type { Kysely } from 'kysely';
import type pg from 'pg';

interface Registered {
  sqliteFile?: string;
  pgPool?: pg.Pool;
}

const registry = ((globalThis as Record<symbol, unknown>)[Symbol.for('finhub.databases')] ??= new WeakMap<
  Kysely<any>,
  Registered
>()) as WeakMap<Kysely<any>, Registered>;

export function registerDatabase(db: Kysely<any>, facts: Registered): void {
  registry.set(db, facts);
}

/** The file behind a SQLite Kysely instance opened by createDatabase (undefined for PostgreSQL). */
export function sqliteFileOf(db: Kysely<any>): string | undefined {
  return registry.get(db)?.sqliteFile;
}

/** The pool behind a PostgreSQL Kysely instance opened by createDatabase. */
export function pgPoolOf(db: Kysely<any>): pg.Pool | undefined {
  return registry.get(db)?.pgPool;
}
