// The explicit list of jobs (no discovery at run time). Add a job: one file here, one line in
// JOBS, its handler in the worker's jobs folder and one line in the worker's registry.
import { activityWindowJob } from './users/jobs/activity-window.ts';
import { aiInsightsJob } from './ai/jobs/ai-insights.ts';
import { anomalyDetectionJob } from './audit/jobs/anomaly-detection.ts';
import { auditRetentionJob } from './audit/jobs/audit-retention.ts';
import { backupCreateJob } from './backups/jobs/backup-create.ts';
import { backupScheduledJob } from './backups/jobs/backup-scheduled.ts';
import { expenseAnomaliesJob } from './ai/jobs/expense-anomalies.ts';
import type { JobDefinition } from '../platform/jobs/define.ts';
import { healthSnapshotJob } from './system/jobs/health-snapshot.ts';
import { integrationScheduleJob } from './integrations/jobs/integration-schedule.ts';
import { integrationSyncJob } from './integrations/jobs/integration-sync.ts';
import { notificationPushJob } from './notifications/jobs/notification-push.ts';
import { notificationsPurgeJob } from './notifications/jobs/notifications-purge.ts';
import { purgeLoginAttemptsJob } from './auth/jobs/purge-login-attempts.ts';
import { pushSendJob } from './notifications/jobs/push-send.ts';

export const JOBS: JobDefinition[] = [healthSnapshotJob, anomalyDetectionJob, purgeLoginAttemptsJob, auditRetentionJob, backupCreateJob, backupScheduledJob,
  notificationPushJob, pushSendJob, notificationsPurgeJob, aiInsightsJob, integrationSyncJob, integrationScheduleJob, expenseAnomaliesJob, activityWindowJob];

/** Queue that receives jobs whose retries are exhausted; its handler records a system error. */
export const DEAD_LETTER_QUEUE = 'dead-letter';

export function findJob<J extends JobDefinition>(name: string, jobs: readonly J[]): J | undefined;
export function findJob(name: string): JobDefinition | undefined;
export function findJob(name: string, jobs: readonly JobDefinition[] = JOBS): JobDefinition | undefined {
  return jobs.find((job) => job.name === name);
}
