// The companies as the actor's company scope lets them be seen (docs/security.md): the shell,
// the tabs, the dashboards and the company screens list or name them.
import { runCompiled } from '../../db/compiled-cache.ts';
import { actorCompanyScope, type ServiceContext } from './context.ts';
import { notFound } from './errors.ts';

/** Companies the actor may see (all, or the one a user is limited to), in id order. */
export async function listVisibleCompanies(ctx: ServiceContext) {
  const all = ctx.db.selectFrom('companies').select(['id', 'name', 'type']).orderBy('id');
  const scope = actorCompanyScope(ctx);
  // Every page's shell asks this: compiled once per shape (db/compiled-cache.ts).
  if (scope === null) return runCompiled(ctx.db, 'visibleCompanies:all', [], () => all);
  return runCompiled(ctx.db, 'visibleCompanies:one', [scope], ([id]) => all.where('id', '=', id as number));
}

/**
 * The company a company screen is about, by its exact name ('One Network', 'Vult'),
 * or null when no company has that name (the screen says so). A user limited to another
 * company gets a 404: the screen does not exist for them.
 */
export async function findScreenCompany(
  ctx: ServiceContext,
  name: string,
): Promise<{ id: number; name: string; type: string } | null> {
  const company =
    (await ctx.db.selectFrom('companies').select(['id', 'name', 'type']).where('name', '=', name).executeTakeFirst()) ??
    null;
  const scope = actorCompanyScope(ctx);
  if (scope !== null && company?.id !== scope) throw notFound();
  return company;
}
