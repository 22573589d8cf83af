// What the API integration calls of /api answer (beyond the sources and endpoints, which are
// resources), as zod schemas: the one description of these answers. The services' and the
// screen's types are these schemas' outputs, and the OpenAPI document describes the answers with
// them (app/features/api-docs), so the code and the document cannot disagree.
import { z } from 'zod';
import { count, id, instant } from '../../platform/lib/answer-fields.ts';
import { HTTP_METHODS, SYNC_DIRECTIONS, type SyncStatus } from '../../../db/types.ts';
import type { Assert, Same } from '../../platform/lib/type-checks.ts';

const score = z.number().int().min(0).max(100);
const milliseconds = z.number().describe('Milliseconds');

const SyncStatusAnswer = z.enum(['running', 'success', 'partial', 'failed']);
type _StatusesMatch = Assert<Same<z.output<typeof SyncStatusAnswer>, SyncStatus>>;

/** POST /api/api-integration-credentials: the credential stored, never its value. */
export const CredentialSummaryAnswer = z.strictObject({
  id,
  sourceId: id,
  credentialKey: z.string(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  expiresAt: instant.nullable(),
  createdAt: instant,
});
export type CredentialSummary = z.output<typeof CredentialSummaryAnswer>;

/** One sync run. */
export const SyncLogAnswer = z.strictObject({
  id,
  endpointId: id,
  endpointName: z.string().nullable().describe('null: the endpoint was deleted'),
  sourceName: z.string().nullable(),
  status: SyncStatusAnswer.describe('partial: the run ended but skipped records (their reasons in syncData.errors)'),
  startedAt: instant,
  completedAt: instant.nullable(),
  recordsProcessed: count,
  recordsCreated: count,
  recordsUpdated: count,
  recordsUnchanged: count.describe(
    'Records the remote sent again with the values the row already has (nothing written)',
  ),
  recordsSkipped: count,
  recordsFailed: count,
  requests: count.describe('HTTP requests made to the source'),
  syncDuration: milliseconds.nullable(),
  responseTime: milliseconds.nullable().describe('Milliseconds, the average answer of the source'),
  errorMessage: z.string().nullable(),
  syncData: z
    .strictObject({ errors: z.array(z.strictObject({ record: z.string(), message: z.string() })) })
    .nullable()
    .describe('Why records were skipped (the first 20)'),
  triggeredBy: id.nullable().describe('The user who started it (null: the schedule or the command line)'),
  timestamp: instant.describe('When the run last changed: its end, or its start while it is still running'),
});
export type SyncLog = z.output<typeof SyncLogAnswer>;
/** GET /api/api-integration-sync-logs and /api/api-integrations/sync-logs: newest first. */
export const SyncLogListAnswer = z.array(SyncLogAnswer);

/** POST /api/api-integration-sync/{id}: the run started, as its log reads now. */
export const SyncStartedAnswer = z.strictObject({
  message: z.string(),
  syncLog: SyncLogAnswer.describe('The running log (the run itself is a job: read the log again for its end)'),
});
export type SyncStarted = z.output<typeof SyncStartedAnswer>;

/** GET /api/api-performance-analysis: the last 30 days of runs. */
export const PerformanceAnalysisAnswer = z.strictObject({
  totalRequests: count,
  successRate: z.number().min(0).max(100).describe('Percent of the finished runs that succeeded, one decimal'),
  avgResponseTime: milliseconds.describe('Milliseconds, weighted by requests'),
  performanceScore: score,
  scoreFormula: z.string(),
  issues: z.array(
    z.strictObject({
      severity: z.enum(['high', 'medium']),
      type: z.enum(['failing', 'slow']),
      description: z.string(),
      affectedEndpoints: z.array(z.string()),
      recommendation: z.string(),
    }),
  ),
  runs: count.describe('Finished runs in the window (the success rate’s base)'),
  windowDays: count,
});
export type PerformanceAnalysis = z.output<typeof PerformanceAnalysisAnswer>;
export type PerformanceIssue = PerformanceAnalysis['issues'][number];

/** GET /api/api-activity-timeline: the latest runs. */
export const TimelineItemAnswer = z.strictObject({
  id,
  status: SyncStatusAnswer,
  endpointName: z.string().describe('"#id" when the endpoint was deleted'),
  method: z.enum(HTTP_METHODS),
  direction: z.enum(SYNC_DIRECTIONS),
  responseTime: milliseconds.nullable(),
  recordsProcessed: count,
  performanceScore: score.nullable().describe('The run’s own score (null while it runs)'),
  timestamp: instant.describe('When it started'),
});
export type TimelineItem = z.output<typeof TimelineItemAnswer>;
export const TimelineListAnswer = z.array(TimelineItemAnswer);

/** GET /api/api-recommendations: one recommendation, from the runs and the audit trail. */
export const RecommendationAnswer = z.strictObject({
  id: z.string(),
  title: z.string(),
  companyName: z.string().nullable(),
  priority: z.enum(['critical', 'high', 'medium', 'low']),
  type: z.enum(['automation', 'reliability', 'configuration']),
  confidence: score,
  description: z.string(),
  reasoning: z.string(),
  potentialBenefits: z.array(z.string()),
  estimatedImpact: z.strictObject({
    timesSaved: z.number().min(0).describe('Hours a week'),
    costReduction: score.describe('Percent'),
    dataAccuracy: score.describe('Percent'),
    automationLevel: score.describe('Percent'),
  }),
  suggestedActions: z.array(z.string()),
  apiEndpoints: z
    .array(
      z.strictObject({
        method: z.enum(HTTP_METHODS),
        endpoint: z.string(),
        direction: z.enum(SYNC_DIRECTIONS),
        targetTable: z.string().describe('snake_case'),
        frequency: z.string().describe('manual, hourly, daily or a cron expression'),
      }),
    )
    .describe('The endpoint to add, or the one to repair'),
});
export type Recommendation = z.output<typeof RecommendationAnswer>;
/** Most pressing first. */
export const RecommendationListAnswer = z.array(RecommendationAnswer);
