// The scheduled backup (docs/jobs.md): daily by default (BACKUP_SCHEDULE, cron, UTC),
// every table with the audit logs and versions; afterwards only the newest BACKUP_KEEP scheduled
// backups are kept. Its cron is the configuration's (config.backups.schedule), set where the
// app's jobs are assembled (app/features/jobs.ts).
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const backupScheduledJob = defineJob({
  name: 'backup-scheduled',
  description: 'Makes the scheduled backup (every table, audit logs and versions) and keeps the newest BACKUP_KEEP',
  payload: z.object({}),
  queue: { retryLimit: 2, retryDelay: 300, retryBackoff: true, expireInSeconds: 3600, policy: 'singleton' },
});
