// The app's jobs, assembled in this one place for every process that runs or sends them
// (server.ts, worker/main.ts, finhub): each job's definition with its handler, listed explicitly
// (no discovery at run time), the crons the configuration sets, and what the engine does around
// the handlers. The job engine (app/platform/jobs) knows none of it: it is given appJobs(config).
// Add a job: its definition and handler in its area's jobs/ folder, one line in JOBS.
import type { AppConfig } from '../platform/config.server.ts';
import type { JobHooks, JobSet, WorkerJob } from '../platform/jobs/handler.ts';
import { jobDeadLettered } from './notifications/notification-events.server.ts';
import { recordSystemError } from '../platform/system-errors.server.ts';
import { failInterruptedBackups } from './backups/backups.server.ts';
import { failInterruptedSyncs } from './integrations/integration-sync.server.ts';
import { recoverInterrupted } from './system/system.server.ts';
import activityWindow from './users/jobs/activity-window.handler.ts';
import aiInsights from './ai/jobs/ai-insights.handler.ts';
import anomalyDetection from './audit/jobs/anomaly-detection.handler.ts';
import auditRetention from './audit/jobs/audit-retention.handler.ts';
import backupCreate from './backups/jobs/backup-create.handler.ts';
import backupScheduled from './backups/jobs/backup-scheduled.handler.ts';
import csvImport from './imports/jobs/csv-import.handler.ts';
import { failInterruptedImports } from './imports/imports.server.ts';
import expenseAnomalies from './ai/jobs/expense-anomalies.handler.ts';
import healthSnapshot from './system/jobs/health-snapshot.handler.ts';
import integrationSchedule from './integrations/jobs/integration-schedule.handler.ts';
import integrationSync from './integrations/jobs/integration-sync.handler.ts';
import notificationPush from './notifications/jobs/notification-push.handler.ts';
import notificationsPurge from './notifications/jobs/notifications-purge.handler.ts';
import purgeLoginAttempts from './auth/jobs/purge-login-attempts.handler.ts';
import pushSend from './notifications/jobs/push-send.handler.ts';
import { otherReaders } from '../platform/i18n/refusal-words.ts';

/**
 * Every job with its handler, as defined: the scheduled backup has no cron here (it is the
 * configuration's, BACKUP_SCHEDULE), so engines take appJobs(config), not this list.
 */
export const JOBS: readonly WorkerJob[] = [
  healthSnapshot,
  anomalyDetection,
  purgeLoginAttempts,
  auditRetention,
  backupCreate,
  backupScheduled,
  notificationPush,
  pushSend,
  notificationsPurge,
  aiInsights,
  integrationSync,
  integrationSchedule,
  expenseAnomalies,
  activityWindow,
  csvImport,
] as WorkerJob[];

const hooks: JobHooks = {
  recoverInterrupted: (ctx, settings, olderThan) =>
    recoverInterrupted(ctx.db, { olderThan }, [
      {
        sweep: (reason, since) =>
          failInterruptedSyncs(ctx.db, reason, { olderThan: since, readers: otherReaders(ctx.runtime.translator) }),
        description: 'API integration syncs left running by a previous run were marked failed',
        noun: 'interrupted sync(s)',
      },
      {
        sweep: (reason, since) => failInterruptedBackups(ctx, reason, { olderThan: since, dir: settings.backups.dir }),
        description: 'Backups left in progress by a previous run were marked failed',
        noun: 'interrupted backup(s)',
      },
      {
        sweep: (reason, since) => failInterruptedImports(ctx.db, reason, since, otherReaders(ctx.runtime.translator)),
        description: 'CSV imports left running by a previous run were marked failed (nothing of them was written)',
        noun: 'interrupted import(s)',
      },
    ]),
  // A system error for Error Tracking, and a notification to the admins.
  async deadLettered(ctx, failure) {
    const systemErrorId = await recordSystemError(ctx.db, {
      severity: 'high',
      errorType: 'job_failed',
      message: `Job ${failure.name} failed: ${failure.message}`,
      endpoint: `job:${failure.name}`,
      method: 'JOB',
      stack: failure.stack,
      details: { jobId: failure.jobId, deadLetterJobId: failure.deadLetterJobId, payload: failure.payload },
      occurrenceKey: `dead-letter:${failure.deadLetterJobId}`,
    });
    await jobDeadLettered(ctx, failure.name, failure.message, systemErrorId);
  },
};

/** The app's jobs as the configuration sets them, with the hooks: what an engine is given. */
export function appJobs(config: Pick<AppConfig, 'backups'>): JobSet {
  const jobs = JOBS.map((job) => (job.name === backupScheduled.name ? { ...job, cron: config.backups.schedule } : job));
  return { jobs, hooks };
}
