import { sql, type DatabaseIntrospector, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { dialectHelpers, dialectOf } from './dialect.ts';
import { migrations } from './migrations/index.ts';

class ListedMigrations implements MigrationProvider {
  readonly db: Kysely<any>;
  constructor(db: Kysely<any>) {
    this.db = db;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    const d = dialectHelpers(dialectOf(this.db));
    return Object.fromEntries(
      Object.entries(migrations).map(([name, m]) => [
        name,
        { up: (db: Kysely<any>) => m.up(db, d), down: m.down && ((db: Kysely<any>) => m.down!(db, d)) },
      ]),
    );
  }
}

/** Names of the listed migrations not yet applied to this database (all of them on a new one). */
async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const exists =
    dialectOf(db) === 'postgres'
      ? (
          await sql<{
            found: boolean;
          }>`select to_regclass(quote_ident(current_schema()) || '.kysely_migration') is not null as found`.execute(db)
        ).rows[0].found
      : (await sql`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db)).rows
          .length > 0;
  if (!exists) return Object.keys(migrations);
  const applied = new Set(
    (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name),
  );
  return Object.keys(migrations).filter((name) => !applied.has(name));
}

/**
 * The database as the Migrator sees it on PostgreSQL: its introspection (whether its bookkeeping
 * tables exist) reads only the one schema. Kysely's own reads the columns of every table of every
 * schema of the database, several times per run: slower with each schema the database holds, and
 * failing when a table of another schema is dropped meanwhile.
 */
function scopedToSchema(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () =>
      (await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = ${schema}`.execute(db))
        .rows,
    getTables: async () =>
      (
        await sql<{ name: string }>`select c.relname as name from pg_class c
          join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v', 'm')`.execute(db)
      ).rows.map(({ name }) => ({ name, schema, isView: false, isForeign: false, columns: [] })),
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'introspection') return introspection;
      const value = Reflect.get(target, key, target);
      // Kysely's methods read private fields: called on the real object, not the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // An up-to-date database (every start of the web process and the workers) needs no Migrator:
  // its introspection reads the catalog of the whole PostgreSQL database, and a table dropped
  // elsewhere at that moment makes it fail ('relation … does not exist').
  if ((await pendingMigrations(db)).length === 0) return [];
  // On PostgreSQL the migrator must look in the connection's own schema: by default it would
  // find another schema's bookkeeping tables and skip creating its own.
  const schema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema
      : undefined;
  const migratorDb = schema === undefined ? db : scopedToSchema(db, schema);
  for (let attempt = 1; ; attempt++) {
    const migrator = new Migrator({ db: migratorDb, provider: new ListedMigrations(db), migrationTableSchema: schema });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    // The same catalog race before any migration ran changed nothing: try again.
    const introspectionRace = error && !failed && /does not exist/.test(String((error as Error).message));
    if (introspectionRace && attempt < 3) continue;
    if (error) {
      const name = failed ? ` (${failed.migrationName})` : '';
      throw new Error(`Database migration failed${name}: ${(error as Error).message ?? error}`);
    }
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }
}
