// System Monitoring (owners and admins): the newest health figures the web process sampled
// (with their time), the last 24 hours of the minute snapshots for the sparklines, the app's own
// traffic figures (measured by the web process, handed in), the captured errors with their
// Resolve step and the recovery actions.
import { z } from 'zod';
import { dialectOf } from '../../../db/dialect.ts';
import { MAX_ID } from '../../platform/lib/query.ts';
import { writeRecord } from '../../platform/audit.server.ts';
import {
  inTransaction,
  requirePermission,
  type PermissionOptions,
  type ServiceContext,
} from '../../platform/context.ts';
import { conflict, fieldErrorsFromZod, invalid, notFound } from '../../platform/errors.ts';
import type { HealthSource } from '../../platform/http/health-sampler.server.ts';
import type { HealthMeasurement } from '../../platform/health-measure.server.ts';
import type {
  ApiFigures,
  HealthVerdict,
  OverallHealth,
  RecoveryActionView,
  SystemErrorView,
  SystemHealth,
} from './answers.ts';
import { healthReason } from './health-verdict.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { REASONS } from '../../platform/audit-reasons.ts';

export type { ApiFigures, HealthVerdict, OverallHealth, RecoveryActionView, SystemErrorView, SystemHealth };

/** Installation-wide ('installation'): an owner or admin of every company; to an admin of one company it does not exist (404). */
const HIDDEN_OUT_OF_SCOPE: PermissionOptions = { hideOutOfScope: true };

/** Percent (or ms for the database) at which a figure is a warning, then critical. */
export const THRESHOLDS = {
  cpu: { warning: 75, critical: 90 },
  memory: { warning: 85, critical: 95 },
  disk: { warning: 85, critical: 95 },
  databaseMs: { warning: 250, critical: 1000 },
  errorRate: { warning: 1, critical: 5 },
} as const;

export const HISTORY_HOURS = 24;
/** The sparklines' resolution: one point per this many minutes (96 points a day). */
export const HISTORY_STEP_MINUTES = 15;

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

function level(
  value: number | null | undefined,
  limits: { warning: number; critical: number },
): 'ok' | 'warning' | 'critical' {
  if (value === null || value === undefined) return 'ok';
  return value >= limits.critical ? 'critical' : value >= limits.warning ? 'warning' : 'ok';
}

/**
 * The one definition of the installation's health, used by System Monitoring and the dashboard
 * alike: the worst level of CPU, memory, disk, database answer time and request error rate.
 */
export function judgeHealth(measured: HealthMeasurement, api: ApiFigures | null): HealthVerdict {
  const memory = pct(measured.memoryUsed, measured.memoryTotal);
  const disk =
    measured.diskTotal !== null && measured.diskFree !== null
      ? pct(measured.diskTotal - measured.diskFree, measured.diskTotal)
      : null;
  const checks: [string, 'ok' | 'warning' | 'critical'][] = [
    [healthReason('cpu', measured.cpuUsage), level(measured.cpuUsage, THRESHOLDS.cpu)],
    [healthReason('memory', memory), level(memory, THRESHOLDS.memory)],
    [healthReason('disk', disk), level(disk, THRESHOLDS.disk)],
    [healthReason('database', measured.databaseResponseMs), level(measured.databaseResponseMs, THRESHOLDS.databaseMs)],
    [healthReason('errorRate', api?.errorRate), level(api?.requests ? api.errorRate : null, THRESHOLDS.errorRate)],
  ];
  const failing = checks.filter(([, l]) => l !== 'ok');
  const overall: OverallHealth = failing.some(([, l]) => l === 'critical')
    ? 'critical'
    : failing.length
      ? 'warning'
      : 'healthy';
  return { timestamp: measured.createdAt, overall, reasons: failing.map(([text]) => text) };
}

/** The health verdict on the newest sample (the dashboard's System Health tile). */
export async function healthVerdict(
  ctx: ServiceContext,
  options: { health: HealthSource; api: ApiFigures | null },
): Promise<HealthVerdict> {
  requirePermission(ctx, 'installation', 'read', HIDDEN_OUT_OF_SCOPE);
  return judgeHealth(await options.health.latest(), options.api);
}

/**
 * GET /api/system/health. `health`: the web process's background samples (the figures are the
 * newest one's, `timestamp` its time); `api`: its traffic figures (null where none are kept).
 */
export async function systemHealth(
  ctx: ServiceContext,
  options: { health: HealthSource; api: ApiFigures | null },
  now = new Date(),
): Promise<SystemHealth> {
  requirePermission(ctx, 'installation', 'read', HIDDEN_OUT_OF_SCOPE);
  const since = new Date(now.getTime() - HISTORY_HOURS * 3_600_000).toISOString();
  const [measured, snapshots] = await Promise.all([
    options.health.latest(),
    ctx.db
      .selectFrom('healthSnapshots')
      .select(['createdAt', 'cpuUsage', 'memoryUsed', 'memoryTotal', 'databaseResponseMs'])
      .where('createdAt', '>=', since)
      .orderBy('createdAt')
      .execute(),
  ]);
  const memory = {
    used: measured.memoryUsed,
    total: measured.memoryTotal,
    percentage: pct(measured.memoryUsed, measured.memoryTotal),
  };
  const disk =
    measured.diskTotal !== null && measured.diskFree !== null
      ? {
          used: measured.diskTotal - measured.diskFree,
          total: measured.diskTotal,
          percentage: pct(measured.diskTotal - measured.diskFree, measured.diskTotal),
        }
      : null;
  const verdict = judgeHealth(measured, options.api);

  // 15-minute averages of the snapshots.
  const buckets = new Map<number, { n: number; cpu: number; memory: number; db: number }>();
  for (const s of snapshots) {
    const key = Math.floor(Date.parse(s.createdAt) / (HISTORY_STEP_MINUTES * 60_000));
    const b = buckets.get(key) ?? { n: 0, cpu: 0, memory: 0, db: 0 };
    b.n += 1;
    b.cpu += Number(s.cpuUsage);
    b.memory += pct(Number(s.memoryUsed), Number(s.memoryTotal));
    b.db += Number(s.databaseResponseMs);
    buckets.set(key, b);
  }
  const round1 = (n: number) => Math.round(n * 10) / 10;
  const history = [...buckets.entries()].map(([key, b]) => ({
    timestamp: new Date(key * HISTORY_STEP_MINUTES * 60_000).toISOString(),
    cpu: round1(b.cpu / b.n),
    memory: round1(b.memory / b.n),
    databaseResponseTime: round1(b.db / b.n),
  }));

  return {
    ...verdict,
    details: {
      cpu: { usage: measured.cpuUsage, loadAverage: measured.loadAverage, cores: measured.cpuCount },
      memory,
      disk,
      database: {
        responseTime: measured.databaseResponseMs,
        connectionCount: measured.databaseConnections,
        size: measured.databaseSize,
        dialect: dialectOf(ctx.db),
      },
      api: options.api,
    },
    history,
  };
}

// ---------------------------------------------------------------------------------------------
// Errors and recovery actions

export const ERROR_STATUSES = ['open', 'resolved', 'all'] as const;
const limit = (fallback: number) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? fallback : Number(v)),
    z
      .number({ error: 'limit must be a whole number from 1 to 1000' })
      .int('limit must be a whole number from 1 to 1000')
      .min(1, 'limit must be a whole number from 1 to 1000')
      .max(1000, 'limit must be a whole number from 1 to 1000'),
  );
const offset = z.preprocess(
  (v) => (v === undefined || v === '' ? 0 : Number(v)),
  z
    .number({ error: 'offset must be a whole number of 0 or more' })
    .int('offset must be a whole number of 0 or more')
    .min(0, 'offset must be a whole number of 0 or more')
    .max(1_000_000_000),
);

export const ErrorQuery = z.object({
  status: z.preprocess(
    (v) => (v === undefined || v === '' ? 'all' : v),
    z.enum(ERROR_STATUSES, { error: `status must be one of: ${ERROR_STATUSES.join(', ')}` }),
  ),
  limit: limit(100),
  offset,
});
export const PageQuery = z.object({ limit: limit(100), offset });

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  return parsed.data;
}

const errorColumns = [
  'e.id',
  'e.severity',
  'e.errorType',
  'e.message',
  'e.endpoint',
  'e.method',
  'e.stack',
  'e.occurrenceCount',
  'e.affectedUsers',
  'e.firstOccurrence',
  'e.lastOccurrence',
  'e.isResolved',
  'e.resolvedAt',
  'e.resolvedBy',
  'u.username as resolvedByName',
  'e.resolution',
] as const;

/** GET /api/system/errors: unresolved first, then the latest occurrence first. */
export async function listSystemErrors(
  ctx: ServiceContext,
  input: unknown,
): Promise<{ rows: SystemErrorView[]; total: number; limit: number; offset: number }> {
  requirePermission(ctx, 'installation', 'read', HIDDEN_OUT_OF_SCOPE);
  const query = parse(ErrorQuery, input);
  const [count, rows] = await Promise.all([
    ctx.db
      .selectFrom('systemErrors')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .$if(query.status !== 'all', (q) => q.where('isResolved', '=', query.status === 'resolved'))
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('systemErrors as e')
      .leftJoin('users as u', 'u.id', 'e.resolvedBy')
      .select(errorColumns)
      .$if(query.status !== 'all', (q) => q.where('e.isResolved', '=', query.status === 'resolved'))
      .orderBy('e.isResolved')
      .orderBy('e.lastOccurrence', 'desc')
      .orderBy('e.id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
  ]);
  return {
    rows: rows.map((r) => ({
      ...r,
      occurrenceCount: Number(r.occurrenceCount),
      affectedUsers: Number(r.affectedUsers),
      isResolved: Boolean(r.isResolved),
    })),
    total: Number(count.n),
    limit: query.limit,
    offset: query.offset,
  };
}

/** GET /api/system/recovery-actions: newest first. */
export async function listRecoveryActions(
  ctx: ServiceContext,
  input: unknown,
): Promise<{ rows: RecoveryActionView[]; total: number; limit: number; offset: number }> {
  requirePermission(ctx, 'installation', 'read', HIDDEN_OUT_OF_SCOPE);
  const query = parse(PageQuery, input);
  const [count, rows] = await Promise.all([
    ctx.db
      .selectFrom('recoveryActions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('recoveryActions')
      .select(['id', 'actionType', 'status', 'description', 'result', 'systemErrorId', 'createdAt', 'completedAt'])
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
  ]);
  return { rows, total: Number(count.n), limit: query.limit, offset: query.offset };
}

export const RESOLUTION_REQUIRED = msg('Resolution notes are required');
export const ALREADY_RESOLVED = msg('This error is already resolved');

export const ResolveRequest = z.object({
  resolution: z
    .string({ error: RESOLUTION_REQUIRED })
    .trim()
    .min(1, RESOLUTION_REQUIRED)
    .max(2000, msg('Resolution notes must be at most 2000 characters')),
});

/** The screen's resolve form (intent resolve): the error's id and the notes. */
export const ResolveForm = ResolveRequest.extend({ id: z.number().int().positive().max(MAX_ID) });

/**
 * POST /api/system/errors/{id}/resolve {resolution}: marks the error resolved with the notes,
 * who and when, with its audit entry. A resolved error is a 409; a later occurrence of the same
 * fault opens a new row.
 */
export async function resolveSystemError(ctx: ServiceContext, id: number, input: unknown): Promise<SystemErrorView> {
  requirePermission(ctx, 'installation', 'read', HIDDEN_OUT_OF_SCOPE);
  const { resolution } = parse(ResolveRequest, input);
  await inTransaction(ctx.db, async (trx) => {
    const row = await trx
      .selectFrom('systemErrors')
      .select(['id', 'isResolved'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound();
    if (row.isResolved) throw conflict(ALREADY_RESOLVED);
    await writeRecord(
      { ...ctx, db: trx },
      'systemErrors',
      {
        action: 'update',
        id,
        values: {
          isResolved: true,
          resolvedAt: new Date().toISOString(),
          resolvedBy: ctx.actor.kind === 'user' ? ctx.actor.user.id : null,
          resolution,
        },
      },
      { reason: REASONS.errorResolved },
    );
  });
  const view = await ctx.db
    .selectFrom('systemErrors as e')
    .leftJoin('users as u', 'u.id', 'e.resolvedBy')
    .select(errorColumns)
    .where('e.id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    ...view,
    occurrenceCount: Number(view.occurrenceCount),
    affectedUsers: Number(view.affectedUsers),
    isResolved: Boolean(view.isResolved),
  };
}
