// Companies as the shell, the tabs and the dashboard list them.
import type { Db, ServiceContext } from './context.ts';

/** Companies the actor may see (all, or the one a user is limited to), in id order. */
export async function listVisibleCompanies(ctx: ServiceContext) {
  let query = ctx.db.selectFrom('companies').select(['id', 'name', 'type']).orderBy('id');
  const scope = ctx.actor.kind === 'user' ? ctx.actor.user.companyId : null;
  if (scope !== null) query = query.where('id', '=', scope);
  return query.execute();
}

/** Public facts for the landing page (names and types only). */
export async function listCompanyCards(db: Db) {
  return db.selectFrom('companies').select(['id', 'name', 'type', 'description']).orderBy('id').limit(8).execute();
}
