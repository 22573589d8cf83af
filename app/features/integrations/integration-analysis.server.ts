// API integration analysis: computed from the sync logs, the
// endpoints and the audit trail, never invented.
// - Performance (the last 30 days of runs): total requests, success rate (successful finished
//   runs ÷ finished runs, one decimal), average response time, and the score
//   round(0.7 × success rate + 0.3 × speed), speed being 100 at 1 s or less and 0 at 10 s or more
//   (linear between); issues: endpoints failing 2 or more of their last 5 runs, endpoints
//   averaging over 5 s.
// - Timeline: the latest 50 runs, each with its own score (success 100 / failure 0 in the formula).
// - Recommendations: a table entered by hand in 3 or more of the last 6 months that no active
//   inbound endpoint fills; an endpoint failing 3 or more of its last 10 runs; a source that
//   needs credentials and has none.
import { SYNC_TARGET_TABLES } from './resources.ts';
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import type { HTTP_METHODS, SYNC_DIRECTIONS, SyncStatus } from '../../../db/types.ts';
import type { PerformanceAnalysis, PerformanceIssue, Recommendation, TimelineItem } from './answers.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const PERFORMANCE_WINDOW_DAYS = 30;
const TIMELINE_LENGTH = 50;
/** Minutes a hand-made entry is taken to cost (for hours saved per week). */
const MINUTES_PER_ENTRY = 3;

/** The speed part of the score: 100 at ≤ 1 s, 0 at ≥ 10 s. */
export function speedScore(ms: number | null): number {
  if (ms === null) return 100;
  return Math.max(0, Math.min(100, ((10_000 - ms) / 9_000) * 100));
}

export function performanceScore(successRate: number, avgMs: number | null): number {
  return Math.round(0.7 * successRate + 0.3 * speedScore(avgMs));
}

export type { PerformanceAnalysis, PerformanceIssue, Recommendation, TimelineItem };

export const SCORE_FORMULA = msg(
  'round(0.7 × success rate + 0.3 × speed); speed is 100 at 1 s or less, 0 at 10 s or more',
);

interface RunRow {
  id: number;
  endpointId: number;
  status: SyncStatus;
  startedAt: string;
  requests: number;
  responseTime: number | null;
  recordsProcessed: number;
  endpointName: string | null;
  method: (typeof HTTP_METHODS)[number] | null;
  direction: (typeof SYNC_DIRECTIONS)[number] | null;
}

async function recentRuns(ctx: ServiceContext, since: string | null, limit: number): Promise<RunRow[]> {
  let q = ctx.db
    .selectFrom('apiIntegrationSyncLogs as l')
    .leftJoin('apiIntegrationEndpoints as e', 'e.id', 'l.endpointId')
    .select([
      'l.id',
      'l.endpointId',
      'l.status',
      'l.startedAt',
      'l.requests',
      'l.responseTime',
      'l.recordsProcessed',
      'e.name as endpointName',
      'e.method',
      'e.direction',
    ])
    .orderBy('l.startedAt', 'desc')
    .orderBy('l.id', 'desc')
    .limit(limit);
  if (since) q = q.where('l.startedAt', '>=', since);
  return (await q.execute()).map((r) => ({
    ...r,
    requests: Number(r.requests),
    responseTime: r.responseTime === null ? null : Number(r.responseTime),
    recordsProcessed: Number(r.recordsProcessed),
  }));
}

/** The latest runs of each endpoint, newest first (one query: the last `per` of every endpoint among the latest runs). */
function byEndpoint(runs: RunRow[], per: number): Map<number, RunRow[]> {
  const out = new Map<number, RunRow[]>();
  for (const run of runs) {
    const list = out.get(run.endpointId) ?? [];
    if (list.length < per) list.push(run);
    out.set(run.endpointId, list);
  }
  return out;
}

/** GET /api/api-performance-analysis. */
export async function analyzePerformance(ctx: ServiceContext, now = new Date()): Promise<PerformanceAnalysis> {
  requirePermission(ctx, 'integrations');
  const since = new Date(now.getTime() - PERFORMANCE_WINDOW_DAYS * 86_400_000).toISOString();
  const runs = await recentRuns(ctx, since, 10_000);
  const finished = runs.filter((r) => r.status !== 'running');
  // A partial run talked to the remote without fault: the records it skipped were refused here.
  const successes = finished.filter((r) => r.status === 'success' || r.status === 'partial').length;
  const successRate = finished.length ? Math.round((successes / finished.length) * 1000) / 10 : 0;
  const timed = finished.filter((r) => r.responseTime !== null);
  const requests = timed.reduce((s, r) => s + r.requests, 0);
  const avgResponseTime = requests
    ? Math.round(timed.reduce((s, r) => s + r.responseTime! * r.requests, 0) / requests)
    : 0;
  const issues: PerformanceIssue[] = [];
  const latest = byEndpoint(finished, 5);
  const failing = [...latest.values()].filter((list) => list.filter((r) => r.status === 'failed').length >= 2);
  if (failing.length) {
    const names = failing.map((list) => list[0].endpointName ?? `#${list[0].endpointId}`);
    issues.push({
      severity: failing.some((list) => list.filter((r) => r.status === 'failed').length >= 3) ? 'high' : 'medium',
      type: 'failing',
      description: `${names.length} endpoint${names.length === 1 ? '' : 's'} failed in 2 or more of their last 5 runs`,
      affectedEndpoints: names,
      recommendation: msg(
        'Open the sync logs for the error, then check the source URL, its credentials and the mapping',
      ),
    });
  }
  const slow = [...byEndpoint(timed, 10).values()].filter((list) => {
    const n = list.reduce((s, r) => s + r.requests, 0);
    return n > 0 && list.reduce((s, r) => s + r.responseTime! * r.requests, 0) / n > 5_000;
  });
  if (slow.length) {
    issues.push({
      severity: 'medium',
      type: 'slow',
      description: `${slow.length} endpoint${slow.length === 1 ? '' : 's'} answered in more than 5 seconds on average`,
      affectedEndpoints: slow.map((list) => list[0].endpointName ?? `#${list[0].endpointId}`),
      recommendation: msg('Ask for smaller pages (pagination size) or sync less often'),
    });
  }
  return {
    totalRequests: finished.reduce((s, r) => s + r.requests, 0),
    successRate,
    avgResponseTime,
    performanceScore: finished.length ? performanceScore(successRate, avgResponseTime || null) : 0,
    scoreFormula: SCORE_FORMULA,
    issues,
    runs: finished.length,
    windowDays: PERFORMANCE_WINDOW_DAYS,
  };
}

/** GET /api/api-activity-timeline: the latest runs. */
export async function activityTimeline(ctx: ServiceContext): Promise<TimelineItem[]> {
  requirePermission(ctx, 'integrations');
  return (await recentRuns(ctx, null, TIMELINE_LENGTH)).map((r) => ({
    id: r.id,
    status: r.status,
    endpointName: r.endpointName ?? `#${r.endpointId}`,
    method: r.method ?? 'GET',
    direction: r.direction ?? 'inbound',
    responseTime: r.responseTime,
    recordsProcessed: r.recordsProcessed,
    performanceScore: r.status === 'running' ? null : performanceScore(r.status === 'failed' ? 0 : 100, r.responseTime),
    timestamp: r.startedAt,
  }));
}

const tableLabel = (table: string) => table.replace(/_/g, ' ');

/** GET /api/api-recommendations: most pressing first. */
export async function recommendations(ctx: ServiceContext, now = new Date()): Promise<Recommendation[]> {
  requirePermission(ctx, 'integrations');
  const out: Recommendation[] = [];
  const scope = actorCompanyScope(ctx);
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 5, 1)).toISOString();
  // Hand-made entries (a signed-in user's creates) per target table, company and month, and all
  // creates per table, as the audit trail's triggers keep them (db/audit-create-months.ts).
  const months = await ctx.db
    .selectFrom('auditCreateMonths as m')
    .leftJoin('companies as c', 'c.id', 'm.companyId')
    .select(['m.tableName', 'm.companyId', 'c.name as companyName', 'm.month', 'm.entries', 'm.byUsers'])
    .where('m.month', '>=', since.slice(0, 7))
    .where('m.tableName', 'in', [...SYNC_TARGET_TABLES])
    .where('m.entries', '>', 0)
    // A user limited to one company: that company's entries only.
    .$if(scope !== null, (q) => q.where('m.companyId', '=', scope!))
    .execute();
  const fed = new Set(
    (
      await ctx.db
        .selectFrom('apiIntegrationEndpoints')
        .select('targetTable')
        .where('direction', '=', 'inbound')
        .where('isActive', '=', true)
        .execute()
    ).map((r) => r.targetTable),
  );
  const groups = new Map<string, { table: string; companyName: string | null; months: Set<string>; entries: number }>();
  const totals = new Map<string, number>();
  for (const row of months) {
    totals.set(row.tableName, (totals.get(row.tableName) ?? 0) + Number(row.entries));
    const byUsers = Number(row.byUsers);
    if (byUsers === 0) continue;
    const key = `${row.tableName}|${row.companyId}`;
    const group = groups.get(key) ?? {
      table: row.tableName,
      companyName: row.companyName ?? null,
      months: new Set<string>(),
      entries: 0,
    };
    group.months.add(row.month);
    group.entries += byUsers;
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    if (group.months.size < 3 || fed.has(group.table)) continue;
    const weeks = (now.getTime() - new Date(since).getTime()) / (7 * 86_400_000);
    const hours = Math.round(((group.entries / weeks) * MINUTES_PER_ENTRY) / 6) / 10;
    const manualShare = Math.round((group.entries / Math.max(group.entries, totals.get(group.table) ?? 0)) * 100);
    out.push({
      id: `automate-${group.table}-${group.companyName ?? 'group'}`,
      title: `Import ${tableLabel(group.table)} automatically`,
      companyName: group.companyName,
      priority: group.months.size >= 5 ? 'high' : 'medium',
      type: 'automation',
      confidence: Math.round((group.months.size / 6) * 100),
      description: `${group.entries} ${tableLabel(group.table)} entr${group.entries === 1 ? 'y was' : 'ies were'} typed in by hand in ${group.months.size} of the last 6 months${group.companyName ? ` for ${group.companyName}` : ''}, and no active endpoint fills this table.`,
      reasoning: `Counted from the audit trail: creates by signed-in users since ${since.slice(0, 10)}, in ${[...group.months].sort().join(', ')}.`,
      potentialBenefits: [
        msg('Less typing and fewer typing errors'),
        msg('Figures arrive on a schedule instead of when someone has time'),
        msg('Every imported row is audited with its source'),
      ],
      estimatedImpact: {
        timesSaved: hours,
        costReduction: Math.min(100, Math.round((hours / 40) * 100)),
        dataAccuracy: Math.min(100, manualShare),
        automationLevel: manualShare,
      },
      suggestedActions: [
        msg('Add an API source for the system these figures come from'),
        `Add an inbound endpoint targeting ${group.table} with a mapping and a daily frequency`,
        msg('Run Sync Now once and compare the imported rows'),
      ],
      apiEndpoints: [
        {
          method: 'GET',
          endpoint: `/${group.table.replace(/_/g, '-')}`,
          direction: 'inbound',
          targetTable: group.table,
          frequency: 'daily',
        },
      ],
    });
  }

  // Endpoints failing repeatedly.
  const latest = byEndpoint(
    (await recentRuns(ctx, null, 2000)).filter((r) => r.status !== 'running'),
    10,
  );
  const endpoints = new Map(
    (
      await ctx.db
        .selectFrom('apiIntegrationEndpoints')
        .select(['id', 'endpoint', 'method', 'direction', 'targetTable', 'syncFrequency'])
        .execute()
    ).map((e) => [e.id, e]),
  );
  for (const [endpointId, runs] of latest) {
    const failures = runs.filter((r) => r.status === 'failed').length;
    const endpoint = endpoints.get(endpointId);
    if (failures < 3 || !endpoint) continue;
    out.push({
      id: `repair-${endpointId}`,
      title: `Repair the ${runs[0].endpointName ?? 'endpoint'} sync`,
      companyName: null,
      priority: failures >= 5 ? 'critical' : 'high',
      type: 'reliability',
      confidence: Math.round((failures / runs.length) * 100),
      description: `${failures} of its last ${runs.length} runs failed.`,
      reasoning: msg('Counted from the sync logs.'),
      potentialBenefits: [
        msg('The target table is kept up to date again'),
        msg('No more failure notices for the admins'),
      ],
      estimatedImpact: {
        timesSaved: 0,
        costReduction: 0,
        dataAccuracy: Math.round((failures / runs.length) * 100),
        automationLevel: Math.round(((runs.length - failures) / runs.length) * 100),
      },
      suggestedActions: [
        msg('Read the error of the latest failed run in Sync Logs'),
        msg('Check the source URL and credentials'),
        msg('Check the mapping against a sample answer'),
      ],
      apiEndpoints: [
        {
          method: endpoint.method,
          endpoint: endpoint.endpoint,
          direction: endpoint.direction,
          targetTable: endpoint.targetTable,
          frequency: endpoint.syncFrequency,
        },
      ],
    });
  }

  // Sources that need credentials and have none.
  const bare = await ctx.db
    .selectFrom('apiIntegrationSources as s')
    .select([
      's.id',
      's.name',
      's.authType',
      (eb) =>
        eb
          .selectFrom('apiIntegrationEndpoints as e')
          .select((x) => x.fn.countAll<number>().as('n'))
          .whereRef('e.sourceId', '=', 's.id')
          .where('e.isActive', '=', true)
          .as('endpoints'),
    ])
    .where('s.authType', '!=', 'none')
    .where('s.isActive', '=', true)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('apiIntegrationCredentials as c')
            .select('c.id')
            .whereRef('c.sourceId', '=', 's.id')
            .where('c.isActive', '=', true),
        ),
      ),
    )
    .execute();
  for (const source of bare) {
    const active = Number(source.endpoints ?? 0);
    out.push({
      id: `credentials-${source.id}`,
      title: `Add credentials for ${source.name}`,
      companyName: null,
      priority: active > 0 ? 'critical' : 'medium',
      type: 'configuration',
      confidence: 100,
      description: `${source.name} uses ${source.authType.replace('_', ' ')} authentication but has no active credential${active ? `; its ${active} active endpoint${active === 1 ? '' : 's'} cannot sync` : ''}.`,
      reasoning: msg('Read from the source and its credentials.'),
      potentialBenefits: [msg('Its endpoints can sync')],
      estimatedImpact: { timesSaved: 0, costReduction: 0, dataAccuracy: 0, automationLevel: 0 },
      suggestedActions: [msg('Open the Credentials tab and add the key the source expects')],
      apiEndpoints: [],
    });
  }
  const rank = { critical: 0, high: 1, medium: 2, low: 3 };
  return out.sort((a, b) => rank[a.priority] - rank[b.priority] || b.confidence - a.confidence);
}
