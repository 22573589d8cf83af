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
// The texts of the findings are messages with their values (docs/languages.md): the screen says
// them in its reader's language, the /api in English, word for word as it always has.
import { SYNC_TARGET_TABLES } from './resources.ts';
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import type { HTTP_METHODS, SYNC_DIRECTIONS, SyncStatus } from '../../../db/types.ts';
import type { PerformanceAnalysis, PerformanceIssue, Recommendation, TimelineItem } from './answers.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { englishIcu } from '../../platform/i18n/english-icu.server.ts';

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

// ---------------------------------------------------------------------------------------------
// Texts

/**
 * A text of the analysis: an English ICU message (written `msg('…')`, so the catalog check finds
 * it) and its values, data such as a source's name or counts. The screen translates it
 * (`t(text.id, text.values)`); the /api answers it in English (`inEnglish`).
 */
export interface AnalysisText {
  id: string;
  values?: Record<string, string | number>;
}

/** The same object with the named text fields as messages (a list of texts stays a list). */
type WithTexts<T, K extends keyof T> = Omit<T, K> & {
  [P in K]: T[P] extends readonly string[] ? AnalysisText[] : AnalysisText;
};

/** A recommendation as the screen gets it: its texts as messages. */
export type RecommendationFinding = WithTexts<
  Recommendation,
  'title' | 'description' | 'reasoning' | 'potentialBenefits' | 'suggestedActions'
>;
/** A performance issue as the screen gets it: its texts as messages. */
export type PerformanceIssueFinding = WithTexts<PerformanceIssue, 'description' | 'recommendation'>;
/** The performance analysis as the screen gets it: its issues' texts as messages. */
export type PerformanceFindings = Omit<PerformanceAnalysis, 'issues'> & { issues: PerformanceIssueFinding[] };

const text = (id: string, values?: AnalysisText['values']): AnalysisText => (values ? { id, values } : { id });

/**
 * The texts the analysis writes from live figures. Counts go through plurals (`#`), which the
 * screen spells in its reader's number format; the other values are data.
 */
export const ANALYSIS_TEXTS = {
  failingIssue: (endpoints: number) =>
    text(msg('{count, plural, one {# endpoint} other {# endpoints}} failed in 2 or more of their last 5 runs'), {
      count: endpoints,
    }),
  slowIssue: (endpoints: number) =>
    text(msg('{count, plural, one {# endpoint} other {# endpoints}} answered in more than 5 seconds on average'), {
      count: endpoints,
    }),
  /** `table`: the table's words ('actual revenue'). */
  automationTitle: (table: string) => text(msg('Import {table} automatically'), { table }),
  automationDescription: (entries: number, table: string, months: number, company: string | null) =>
    company
      ? text(
          msg(
            '{count, plural, one {# {table} entry was} other {# {table} entries were}} typed in by hand in {months} of the last 6 months for {company}, and no active endpoint fills this table.',
          ),
          { count: entries, table, months, company },
        )
      : text(
          msg(
            '{count, plural, one {# {table} entry was} other {# {table} entries were}} typed in by hand in {months} of the last 6 months, and no active endpoint fills this table.',
          ),
          { count: entries, table, months },
        ),
  /** `since`: a day (YYYY-MM-DD); `months`: the months counted (YYYY-MM). */
  automationReasoning: (since: string, months: string[]) =>
    text(msg('Counted from the audit trail: creates by signed-in users since {since}, in {months}.'), {
      since,
      months: months.join(', '),
    }),
  /** `table`: the table's name as an endpoint targets it ('actual_revenue'). */
  automationEndpoint: (table: string) =>
    text(msg('Add an inbound endpoint targeting {table} with a mapping and a daily frequency'), { table }),
  repairTitle: (endpoint: string | null) =>
    endpoint === null ? text(msg('Repair the endpoint sync')) : text(msg('Repair the {endpoint} sync'), { endpoint }),
  repairDescription: (failures: number, runs: number) =>
    text(msg('{failures} of its last {runs} runs failed.'), { failures, runs }),
  credentialsTitle: (source: string) => text(msg('Add credentials for {source}'), { source }),
  /** `auth`: the source's auth type in words ('api key'); `endpoints`: its active endpoints. */
  credentialsDescription: (source: string, auth: string, endpoints: number) =>
    endpoints
      ? text(
          msg(
            '{source} uses {auth} authentication but has no active credential; its {count, plural, one {# active endpoint} other {# active endpoints}} cannot sync.',
          ),
          { source, auth, count: endpoints },
        )
      : text(msg('{source} uses {auth} authentication but has no active credential.'), { source, auth }),
};

/** English, numbers in plurals without grouping: the /api has always written 1234, not 1,234. */
const english = englishIcu({ grouping: false });

/** A text as the /api writes it: English, its values in place. */
export function inEnglish(message: AnalysisText): string {
  return english(message.id, message.values);
}

/** A recommendation as the /api answers it. */
export function recommendationInEnglish(finding: RecommendationFinding): Recommendation {
  return {
    ...finding,
    title: inEnglish(finding.title),
    description: inEnglish(finding.description),
    reasoning: inEnglish(finding.reasoning),
    potentialBenefits: finding.potentialBenefits.map(inEnglish),
    suggestedActions: finding.suggestedActions.map(inEnglish),
  };
}

/** The performance analysis as the /api answers it. */
export function performanceInEnglish(findings: PerformanceFindings): PerformanceAnalysis {
  return {
    ...findings,
    issues: findings.issues.map((issue) => ({
      ...issue,
      description: inEnglish(issue.description),
      recommendation: inEnglish(issue.recommendation),
    })),
  };
}

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

/** GET /api/api-performance-analysis, in English. */
export async function analyzePerformance(ctx: ServiceContext, now = new Date()): Promise<PerformanceAnalysis> {
  return performanceInEnglish(await findPerformance(ctx, now));
}

/** The performance analysis with its texts as messages (the screen's). */
export async function findPerformance(ctx: ServiceContext, now = new Date()): Promise<PerformanceFindings> {
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
  const issues: PerformanceIssueFinding[] = [];
  const latest = byEndpoint(finished, 5);
  const failing = [...latest.values()].filter((list) => list.filter((r) => r.status === 'failed').length >= 2);
  if (failing.length) {
    const names = failing.map((list) => list[0].endpointName ?? `#${list[0].endpointId}`);
    issues.push({
      severity: failing.some((list) => list.filter((r) => r.status === 'failed').length >= 3) ? 'high' : 'medium',
      type: 'failing',
      description: ANALYSIS_TEXTS.failingIssue(names.length),
      affectedEndpoints: names,
      recommendation: text(
        msg('Open the sync logs for the error, then check the source URL, its credentials and the mapping'),
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
      description: ANALYSIS_TEXTS.slowIssue(slow.length),
      affectedEndpoints: slow.map((list) => list[0].endpointName ?? `#${list[0].endpointId}`),
      recommendation: text(msg('Ask for smaller pages (pagination size) or sync less often')),
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

/** GET /api/api-recommendations, in English: most pressing first. */
export async function recommendations(ctx: ServiceContext, now = new Date()): Promise<Recommendation[]> {
  return (await findRecommendations(ctx, now)).map(recommendationInEnglish);
}

/** The recommendations with their texts as messages (the screen's): most pressing first. */
export async function findRecommendations(ctx: ServiceContext, now = new Date()): Promise<RecommendationFinding[]> {
  requirePermission(ctx, 'integrations');
  const out: RecommendationFinding[] = [];
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
      title: ANALYSIS_TEXTS.automationTitle(tableLabel(group.table)),
      companyName: group.companyName,
      priority: group.months.size >= 5 ? 'high' : 'medium',
      type: 'automation',
      confidence: Math.round((group.months.size / 6) * 100),
      description: ANALYSIS_TEXTS.automationDescription(
        group.entries,
        tableLabel(group.table),
        group.months.size,
        group.companyName,
      ),
      reasoning: ANALYSIS_TEXTS.automationReasoning(since.slice(0, 10), [...group.months].sort()),
      potentialBenefits: [
        text(msg('Less typing and fewer typing errors')),
        text(msg('Figures arrive on a schedule instead of when someone has time')),
        text(msg('Every imported row is audited with its source')),
      ],
      estimatedImpact: {
        timesSaved: hours,
        costReduction: Math.min(100, Math.round((hours / 40) * 100)),
        dataAccuracy: Math.min(100, manualShare),
        automationLevel: manualShare,
      },
      suggestedActions: [
        text(msg('Add an API source for the system these figures come from')),
        ANALYSIS_TEXTS.automationEndpoint(group.table),
        text(msg('Run Sync Now once and compare the imported rows')),
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
      title: ANALYSIS_TEXTS.repairTitle(runs[0].endpointName),
      companyName: null,
      priority: failures >= 5 ? 'critical' : 'high',
      type: 'reliability',
      confidence: Math.round((failures / runs.length) * 100),
      description: ANALYSIS_TEXTS.repairDescription(failures, runs.length),
      reasoning: text(msg('Counted from the sync logs.')),
      potentialBenefits: [
        text(msg('The target table is kept up to date again')),
        text(msg('No more failure notices for the admins')),
      ],
      estimatedImpact: {
        timesSaved: 0,
        costReduction: 0,
        dataAccuracy: Math.round((failures / runs.length) * 100),
        automationLevel: Math.round(((runs.length - failures) / runs.length) * 100),
      },
      suggestedActions: [
        text(msg('Read the error of the latest failed run in Sync Logs')),
        text(msg('Check the source URL and credentials')),
        text(msg('Check the mapping against a sample answer')),
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
      title: ANALYSIS_TEXTS.credentialsTitle(source.name),
      companyName: null,
      priority: active > 0 ? 'critical' : 'medium',
      type: 'configuration',
      confidence: 100,
      description: ANALYSIS_TEXTS.credentialsDescription(source.name, source.authType.replace('_', ' '), active),
      reasoning: text(msg('Read from the source and its credentials.')),
      potentialBenefits: [text(msg('Its endpoints can sync'))],
      estimatedImpact: { timesSaved: 0, costReduction: 0, dataAccuracy: 0, automationLevel: 0 },
      suggestedActions: [text(msg('Open the Credentials tab and add the key the source expects'))],
      apiEndpoints: [],
    });
  }
  const rank = { critical: 0, high: 1, medium: 2, low: 3 };
  return out.sort((a, b) => rank[a.priority] - rank[b.priority] || b.confidence - a.confidence);
}
