import { can, effectiveFlags } from '../../platform/lib/permissions.ts';
import { screenTableLabel } from '../audit/index.server.ts';
import { listAuditLogs, listSecurityAnomalies, parseAuditQuery } from '../audit/index.server.ts';
import { listBackups } from '../backups/index.server.ts';
import { listVisibleCompanies } from '../../platform/companies.server.ts';
import { actingUser, requireUser, type AuthUser, type ServiceContext } from '../../platform/context.ts';
import { dashboardCharts } from './dashboard-charts.server.ts';
import type { Dashboard, DashboardActivity, DashboardAlert, DashboardSyncRun, UserAccess } from './answers.ts';
import { isDomainError } from '../../platform/errors.ts';
import { analyzePerformance } from '../integrations/index.server.ts';
import { listSyncLogs } from '../integrations/index.server.ts';
import type { HealthSource } from '../../platform/http/health-sampler.server.ts';
import { healthVerdict, type ApiFigures } from '../system/index.server.ts';
import { userStats } from '../users/index.server.ts';
import { msg } from '../../platform/i18n/messages.ts';

export function accessLevelLabel(user: AuthUser): UserAccess['accessLevel'] {
  const flags = effectiveFlags(user);
  if (user.role === 'owner') return msg('Full Access (System Owner)');
  if (flags.canManageUsers) return msg('Full Access');
  if (flags.canCreate || flags.canEdit || flags.canDelete) return msg('Read & Write');
  return msg('Read Only');
}

/** The signed-in user's 'Your Access Level' card. */
export async function getUserAccess(ctx: ServiceContext): Promise<UserAccess> {
  const user = requireUser(ctx);
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

// ---------------------------------------------------------------------------------------------
// The dashboard's figures: each tile and list comes from the service that
// owns it, with that service's permission and company scope; what the user may not see is null
// (the screen leaves it out) rather than an error.

/** Anomalies this recent show as System Alerts. */
export const ALERT_WINDOW_DAYS = 7;
export const RECENT_ACTIVITY_SHOWN = 8;
export const API_ACTIVITY_SHOWN = 5;
export const ALERTS_SHOWN = 5;

export type { Dashboard, DashboardActivity, DashboardAlert, DashboardSyncRun, UserAccess };

/** The value, or null when the service refuses the caller (403). */
async function ifAllowed<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (isDomainError(error) && error.kind === 'forbidden') return null;
    throw error;
  }
}

/** GET /api/dashboard and the dashboard screen; `health` as System Monitoring gets it. */
export async function getDashboard(
  ctx: ServiceContext,
  health: { health: HealthSource; api: ApiFigures | null },
  now = new Date(),
): Promise<Dashboard> {
  const since = new Date(now.getTime() - ALERT_WINDOW_DAYS * 86_400_000).toISOString();
  const user = actingUser(ctx);
  const [userAccess, stats, performance, anomalies, backups, audit, syncs, charts, verdict] = await Promise.all([
    getUserAccess(ctx),
    ifAllowed(() => userStats(ctx)),
    ifAllowed(() => analyzePerformance(ctx, now)),
    ifAllowed(() => listSecurityAnomalies(ctx, { since, limit: 1000 })),
    ifAllowed(() => listBackups(ctx, { status: 'completed', limit: 1 })),
    ifAllowed(() => listAuditLogs(ctx, parseAuditQuery({ limit: RECENT_ACTIVITY_SHOWN, offset: 0 }))),
    ifAllowed(() => listSyncLogs(ctx, { limit: API_ACTIVITY_SHOWN })),
    ifAllowed(() => dashboardCharts(ctx, now)),
    user && can(user, 'installation') ? healthVerdict(ctx, health) : null,
  ]);
  return {
    updatedAt: now.toISOString(),
    userAccess,
    userStats: stats && { activeUsers: stats.activeUsers, totalUsers: stats.totalUsers },
    api: performance && {
      successRate: performance.successRate,
      runs: performance.runs,
      windowDays: performance.windowDays,
    },
    systemHealth: verdict,
    lastBackup: backups && {
      backup: backups[0] ? { id: backups[0].id, name: backups[0].name, createdAt: backups[0].createdAt } : null,
    },
    recentActivity:
      audit &&
      audit.rows.map((r) => ({
        id: r.id,
        action: r.action,
        tableName: r.tableName,
        tableLabel: screenTableLabel(r.tableName),
        username: r.username,
        timestamp: r.timestamp,
      })),
    apiActivity:
      syncs &&
      syncs.rows.map((r) => ({
        id: r.id,
        status: r.status,
        sourceName: r.sourceName,
        endpointName: r.endpointName,
        startTime: r.startedAt,
        endTime: r.completedAt,
        recordsProcessed: r.recordsProcessed,
        errorMessage: r.errorMessage,
        timestamp: r.timestamp,
      })),
    alerts:
      anomalies &&
      anomalies.slice(0, ALERTS_SHOWN).map((a) => ({
        id: a.id,
        username: a.username,
        anomalyType: a.anomalyType,
        description: a.description,
        windowEnd: a.windowEnd,
      })),
    charts,
  };
}
