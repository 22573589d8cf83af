// What createDatabase knows about a Kysely instance beyond Kysely itself: the SQLite file (for
// readers beside the app's one connection) or the PostgreSQL pool (for a dedicated connection).
// It travels with the instance as a plugin that changes nothing, so every copy of this module
// (the Remix build bundles its own) and every instance derived from it (withPlugin) finds it
// through Kysely's public plugin list. A transaction gets neither: what runs inside one must see
// its writes, so it reads through the transaction itself.
import type {
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type pg from 'pg';

export class ConnectionFacts implements KyselyPlugin {
  readonly connectionFacts = true;
  readonly facts: { sqliteFile?: string; pgPool?: pg.Pool };

  constructor(facts: { sqliteFile?: string; pgPool?: pg.Pool }) {
    this.facts = facts;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const isFacts = (plugin: KyselyPlugin): plugin is ConnectionFacts => 'connectionFacts' in plugin;

function factsOf(db: Kysely<any>): ConnectionFacts['facts'] | undefined {
  if (db.isTransaction) return undefined;
  return db.getExecutor().plugins.find(isFacts)?.facts;
}

/** The file behind a SQLite Kysely instance opened by createDatabase (undefined for PostgreSQL, or in a transaction). */
export function sqliteFileOf(db: Kysely<any>): string | undefined {
  return factsOf(db)?.sqliteFile;
}

/** The pool behind a PostgreSQL Kysely instance opened by createDatabase (undefined in a transaction). */
export function pgPoolOf(db: Kysely<any>): pg.Pool | undefined {
  return factsOf(db)?.pgPool;
}
