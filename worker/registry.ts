// The handlers the worker runs, one per job in app/jobs (JOBS), listed explicitly (no discovery
// at run time). Add a job: its handler file in jobs/, one line here.
import type { WorkerJob } from './define.ts';
import activityWindow from './jobs/activity-window.ts';
import aiInsights from './jobs/ai-insights.ts';
import anomalyDetection from './jobs/anomaly-detection.ts';
import auditRetention from './jobs/audit-retention.ts';
import backupCreate from './jobs/backup-create.ts';
import backupScheduled from './jobs/backup-scheduled.ts';
import expenseAnomalies from './jobs/expense-anomalies.ts';
import healthSnapshot from './jobs/health-snapshot.ts';
import integrationSchedule from './jobs/integration-schedule.ts';
import integrationSync from './jobs/integration-sync.ts';
import notificationPush from './jobs/notification-push.ts';
import notificationsPurge from './jobs/notifications-purge.ts';
import purgeLoginAttempts from './jobs/purge-login-attempts.ts';
import pushSend from './jobs/push-send.ts';

export const registry: WorkerJob[] = [healthSnapshot, anomalyDetection, purgeLoginAttempts, auditRetention, backupCreate, backupScheduled,
  notificationPush, pushSend, notificationsPurge, aiInsights, integrationSync, integrationSchedule, expenseAnomalies, activityWindow] as WorkerJob[];
