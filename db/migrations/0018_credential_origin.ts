// Integration credentials are bound to the origin (scheme, host, port) they were entered for
// (docs/security.md): the origin is stored beside the value and, from seal version 2 on, sealed into it
// as AES-GCM associated data. Existing credentials (seal version 1, sealed without associated
// data) take their source's origin of today; they open as before and are re-sealed at version 2
// by their first use or by `finhub integrations rotate-key`. Sync logs get a lease, so that a
// run is carried out by one worker at a time even when its job is delivered twice.
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema.alterTable('api_integration_credentials').addColumn('origin', 'varchar(300)').execute();
  await db.schema
    .alterTable('api_integration_credentials')
    .addColumn('seal_version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await bindCredentialOrigins(db);
  await db.schema.alterTable('api_integration_sync_logs').addColumn('lease_token', 'varchar(64)').execute();
  await db.schema.alterTable('api_integration_sync_logs').addColumn('lease_expires_at', d.instant).execute();
}

/** scheme://host[:port] of an http(s) URL; null for anything else. */
export function originOfUrl(text: unknown): string | null {
  if (typeof text !== 'string' || !URL.canParse(text.trim())) return null;
  const url = new URL(text.trim());
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
}

/** Credentials without an origin take their source's (exported for its test). */
export async function bindCredentialOrigins(db: Kysely<any>): Promise<void> {
  const rows = await db
    .selectFrom('api_integration_credentials as c')
    .innerJoin('api_integration_sources as s', 's.id', 'c.source_id')
    .select(['c.id as id', 's.base_url as url'])
    .where('c.origin', 'is', null)
    .execute();
  for (const row of rows) {
    const origin = originOfUrl(row.url);
    if (origin) await db.updateTable('api_integration_credentials').set({ origin }).where('id', '=', row.id).execute();
  }
}
