import { effectiveFlags } from '../lib/permissions.ts';
import type { AuthUser, Db } from './context.ts';
import { listVisibleCompanies } from './companies.server.ts';

export function accessLevelLabel(user: AuthUser): string {
  const flags = effectiveFlags(user);
  if (user.role === 'owner') return 'Full Access (System Owner)';
  if (flags.canManageUsers) return 'Full Access';
  if (flags.canCreate || flags.canEdit || flags.canDelete) return 'Read & Write';
  return 'Read Only';
}

/** The 'Your Access Level' card (spec 1 §3 userAccess). */
export async function getUserAccess(db: Db, user: AuthUser) {
  const companies = await listVisibleCompanies(db, user);
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
