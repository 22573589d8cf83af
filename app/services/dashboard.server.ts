import { effectiveFlags } from '../lib/permissions.ts';
import type { AuthUser, ServiceContext } from './context.ts';
import { listVisibleCompanies } from './companies.server.ts';
import { forbidden } from './errors.ts';

export function accessLevelLabel(user: AuthUser): string {
  const flags = effectiveFlags(user);
  if (user.role === 'owner') return 'Full Access (System Owner)';
  if (flags.canManageUsers) return 'Full Access';
  if (flags.canCreate || flags.canEdit || flags.canDelete) return 'Read & Write';
  return 'Read Only';
}

/** The signed-in user's 'Your Access Level' card (spec 1 §3 userAccess). */
export async function getUserAccess(ctx: ServiceContext) {
  if (ctx.actor.kind !== 'user') throw forbidden();
  const user = ctx.actor.user;
  const companies = await listVisibleCompanies(ctx);
  const own = user.companyId ? companies.find((c) => c.id === user.companyId) : undefined;
  const flags = effectiveFlags(user);
  return {
    companyName: own?.name ?? 'All Companies',
    companyType: own?.type ?? 'all',
    role: user.role,
    accessLevel: accessLevelLabel(user),
    permissions: {
      canAccessFinancialData: flags.canAccessFinancialData,
      canAccessSubscriberData: flags.canAccessSubscriberData,
      canAccessAnalytics: flags.canAccessAnalytics,
      canManageUsers: flags.canManageUsers,
    },
    availableCompanies: companies,
  };
}
