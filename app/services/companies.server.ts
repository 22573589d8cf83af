import { companyScope, type Principal } from '../lib/permissions.ts';
import type { Db } from './context.ts';

/** Companies the user may see (all, or their own), in id order. */
export async function listVisibleCompanies(db: Db, user: Pick<Principal, 'companyId'>) {
  let query = db.selectFrom('companies').select(['id', 'name', 'type']).orderBy('id');
  const scope = companyScope(user);
  if (scope !== null) query = query.where('id', '=', scope);
  return query.execute();
}

/** Public facts for the landing page (names and types only). */
export async function listCompanyCards(db: Db) {
  return db.selectFrom('companies').select(['id', 'name', 'type', 'description']).orderBy('id').limit(8).execute();
}
