// Companies as the landing page lists them (those the actor may see: app/platform/companies.server.ts).
import type { Db } from '../../platform/context.ts';

/** Public facts for the landing page (names and types only). */
export async function listCompanyCards(db: Db) {
  return db.selectFrom('companies').select(['id', 'name', 'type', 'description']).orderBy('id').limit(8).execute();
}
