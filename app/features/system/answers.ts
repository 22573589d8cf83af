// What the System Monitoring calls of /api answer, as zod schemas: the one description of these
// answers. The services' types are these schemas' outputs, and the OpenAPI document describes the
// answers with them (app/features/api-docs), so the code and the document cannot disagree.
import { z } from 'zod';
import { count, id, instant } from '../../platform/lib/answer-fields.ts';
import type { DialectName } from '../../../db/dialect.ts';
import type { ErrorSeverity, RecoveryStatus } from '../../../db/types.ts';
import type { RequestMetricsSummary } from '../../platform/http/request-metrics.ts';
import type { Assert, Same } from '../../platform/lib/type-checks.ts';

const percent = z.number().describe('Percent, one decimal');
const bytes = z.number().min(0).describe('Bytes');

const OverallHealthAnswer = z.enum(['healthy', 'warning', 'critical', 'unknown']);
export type OverallHealth = z.output<typeof OverallHealthAnswer>;

/** The verdict on the newest health sample: System Monitoring's and the dashboard's. */
export const HealthVerdictAnswer = z.strictObject({
  timestamp: instant.describe('When the judged figures were measured'),
  overall: OverallHealthAnswer,
  reasons: z.array(z.string()).describe('One line per figure over its threshold'),
});
export type HealthVerdict = z.output<typeof HealthVerdictAnswer>;

/** The web process's own traffic over its recent window (null where no process measures it). */
export const ApiFiguresAnswer = z.strictObject({
  responseTime: z.number().nullable().describe('Milliseconds, the mean answer time (null: no requests)'),
  errorRate: percent.describe('Percent of the requests answered with a 5xx, one decimal'),
  requestsPerMinute: z.number().describe('Over the minutes the process has been up, at most the window'),
  requests: count,
  windowMinutes: z.number().int().min(1),
});
export type ApiFigures = z.output<typeof ApiFiguresAnswer>;
type _FiguresMatch = Assert<Same<ApiFigures, RequestMetricsSummary>>;

const DialectAnswer = z.enum(['sqlite', 'postgres']);
type _DialectsMatch = Assert<Same<z.output<typeof DialectAnswer>, DialectName>>;

const usage = z.strictObject({ used: bytes, total: bytes, percentage: percent });

/** GET /api/system/health: the verdict, the newest sample's figures and 24 hours of averages. */
export const SystemHealthAnswer = HealthVerdictAnswer.extend({
  details: z.strictObject({
    cpu: z.strictObject({
      usage: percent.describe('Percent of all CPUs busy over a short sample'),
      loadAverage: z.array(z.number()).describe('1, 5 and 15 minutes'),
      cores: count,
    }),
    memory: usage,
    disk: usage.nullable().describe('The file system holding the data directory (null: not measurable)'),
    database: z.strictObject({
      responseTime: z.number().describe('Milliseconds'),
      connectionCount: count.nullable().describe('PostgreSQL only'),
      size: bytes.nullable(),
      dialect: DialectAnswer,
    }),
    api: ApiFiguresAnswer.nullable(),
  }),
  history: z
    .array(
      z.strictObject({
        timestamp: instant,
        cpu: percent,
        memory: percent,
        databaseResponseTime: z.number().describe('Milliseconds'),
      }),
    )
    .describe('Averages per 15 minutes over the last 24 hours, oldest first'),
});
export type SystemHealth = z.output<typeof SystemHealthAnswer>;

const ErrorSeverityAnswer = z.enum(['low', 'medium', 'high', 'critical']);
type _SeveritiesMatch = Assert<Same<z.output<typeof ErrorSeverityAnswer>, ErrorSeverity>>;

/** A captured server error or job failure. */
export const SystemErrorAnswer = z.strictObject({
  id,
  severity: ErrorSeverityAnswer,
  errorType: z.string(),
  message: z.string(),
  endpoint: z.string().nullable().describe('The path it happened on, its ids as :id; job:<name> for a job'),
  method: z.string().nullable().describe('The HTTP method; JOB for a job'),
  stack: z.string().nullable(),
  occurrenceCount: z.number().int().min(1),
  affectedUsers: count,
  firstOccurrence: instant,
  lastOccurrence: instant,
  isResolved: z.boolean(),
  resolvedAt: instant.nullable(),
  resolvedBy: id.nullable(),
  resolvedByName: z.string().nullable().describe('The resolver’s username (null: unresolved, or a deleted account)'),
  resolution: z.string().nullable().describe('The resolution notes'),
});
export type SystemErrorView = z.output<typeof SystemErrorAnswer>;
/** GET /api/system/errors: unresolved first, then the latest occurrence first. */
export const SystemErrorListAnswer = z.array(SystemErrorAnswer);

const RecoveryStatusAnswer = z.enum(['executing', 'completed', 'failed', 'other']);
type _StatusesMatch = Assert<Same<z.output<typeof RecoveryStatusAnswer>, RecoveryStatus>>;

export const RecoveryActionAnswer = z.strictObject({
  id,
  actionType: z.string(),
  status: RecoveryStatusAnswer,
  description: z.string().nullable(),
  result: z.string().nullable(),
  systemErrorId: id.nullable().describe('The error it answered, if any'),
  createdAt: instant,
  completedAt: instant.nullable(),
});
export type RecoveryActionView = z.output<typeof RecoveryActionAnswer>;
/** GET /api/system/recovery-actions: newest first. */
export const RecoveryActionListAnswer = z.array(RecoveryActionAnswer);
