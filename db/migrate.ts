import { sql, type Kysely } from 'kysely';
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

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // On PostgreSQL the migrator must look in the connection's own schema: by default it would
  // find another schema's bookkeeping tables and skip creating its own.
  const schema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema
      : undefined;
  const migrator = new Migrator({ db, provider: new ListedMigrations(db), migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${(error as Error).message ?? error}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
