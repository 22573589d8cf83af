// The explicit list of jobs (no discovery at run time). Add a job: one file here, one line in
// JOBS, its handler in the worker's jobs folder and one line in the worker's registry.
import { activityWindowJob } from './activity-window.ts';
import { aiInsightsJob } from './ai-insights.ts';
import { anomalyDetectionJob } from './anomaly-detection.ts';
import { auditRetentionJob } from './audit-retention.ts';
import { backupCreateJob } from './backup-create.ts';
import { backupScheduledJob } from './backup-scheduled.ts';
import { expenseAnomaliesJob } from './expense-anomalies.ts';
import type { JobDefinition } from './define.ts';
import { healthSnapshotJob } from './health-snapshot.ts';
import { integrationScheduleJob } from './integration-schedule.ts';
import { integrationSyncJob } from './integration-sync.ts';
import { notificationPushJob } from './notification-push.ts';
import { notificationsPurgeJob } from './notifications-purge.ts';
import { purgeLoginAttemptsJob } from './purge-login-attempts.ts';
import { pushSendJob } from './push-send.ts';

export const JOBS: JobDefinition[] = [healthSnapshotJob, anomalyDetectionJob, purgeLoginAttemptsJob, auditRetentionJob, backupCreateJob, backupScheduledJob,
  notificationPushJob, pushSendJob, notificationsPurgeJob, aiInsightsJob, integrationSyncJob, integrationScheduleJob, expenseAnomaliesJob, activityWindowJob];

/** Queue that receives jobs whose retries are exhausted; its handler records a system error. */
export const DEAD_LETTER_QUEUE = 'dead-letter';

export function findJob<J extends JobDefinition>(name: string, jobs: readonly J[]): J | undefined;
export function findJob(name: string): JobDefinition | undefined;
export function findJob(name: string, jobs: readonly JobDefinition[] = JOBS): JobDefinition | undefined {
  return jobs.find((job) => job.name === name);
}
