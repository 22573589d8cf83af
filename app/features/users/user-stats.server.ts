// The user totals (User Management's Statistics tab, the dashboard's card, /api/users/stats).
// A module of its own, apart from users.server.ts: that one writes users and so reaches the
// auth area, and the users index, which auth itself imports, must not lead back there.
import { ROLES, type Role } from '../../platform/lib/permissions.ts';
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import type { UserStats } from './answers.ts';

/** GET /api/users/stats: totals over the users the actor may see. */
export async function userStats(ctx: ServiceContext): Promise<UserStats> {
  requirePermission(ctx, 'users');
  const scope = actorCompanyScope(ctx);
  let q = ctx.db
    .selectFrom('users')
    .select(['role', 'isActive', (eb) => eb.fn.countAll().as('n')])
    .groupBy(['role', 'isActive']);
  if (scope !== null) q = q.where('companyId', '=', scope);
  const rows = await q.execute();
  const usersByRole = Object.fromEntries(ROLES.map((role) => [role, 0])) as Record<Role, number>;
  let activeUsers = 0;
  let inactiveUsers = 0;
  for (const row of rows) {
    const n = Number(row.n);
    usersByRole[row.role] += n;
    // SQLite answers the grouped boolean as 0/1 when it comes from an aggregate query.
    if (row.isActive === true || (row.isActive as unknown) === 1) activeUsers += n;
    else inactiveUsers += n;
  }
  return { totalUsers: activeUsers + inactiveUsers, activeUsers, inactiveUsers, usersByRole };
}
