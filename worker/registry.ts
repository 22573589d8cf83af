// The handlers the worker runs, one per job in app/jobs (JOBS), listed explicitly (no discovery
// at run time). Add a job: its handler file in jobs/, one line here.
import type { WorkerJob } from '../app/platform/jobs/handler.ts';
import activityWindow from '../app/features/users/jobs/activity-window.handler.ts';
import aiInsights from '../app/features/ai/jobs/ai-insights.handler.ts';
import anomalyDetection from '../app/features/audit/jobs/anomaly-detection.handler.ts';
import auditRetention from '../app/features/audit/jobs/audit-retention.handler.ts';
import backupCreate from '../app/features/backups/jobs/backup-create.handler.ts';
import backupScheduled from '../app/features/backups/jobs/backup-scheduled.handler.ts';
import expenseAnomalies from '../app/features/ai/jobs/expense-anomalies.handler.ts';
import healthSnapshot from '../app/features/system/jobs/health-snapshot.handler.ts';
import integrationSchedule from '../app/features/integrations/jobs/integration-schedule.handler.ts';
import integrationSync from '../app/features/integrations/jobs/integration-sync.handler.ts';
import notificationPush from '../app/features/notifications/jobs/notification-push.handler.ts';
import notificationsPurge from '../app/features/notifications/jobs/notifications-purge.handler.ts';
import purgeLoginAttempts from '../app/features/auth/jobs/purge-login-attempts.handler.ts';
import pushSend from '../app/features/notifications/jobs/push-send.handler.ts';

export const registry: WorkerJob[] = [healthSnapshot, anomalyDetection, purgeLoginAttempts, auditRetention, backupCreate, backupScheduled,
  notificationPush, pushSend, notificationsPurge, aiInsights, integrationSync, integrationSchedule, expenseAnomalies, activityWindow] as WorkerJob[];
