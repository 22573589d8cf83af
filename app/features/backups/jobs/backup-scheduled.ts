// The scheduled backup (docs/jobs.md): daily by default (BACKUP_SCHEDULE, cron, UTC),
// every table with the audit logs and versions; afterwards only the newest BACKUP_KEEP scheduled
// backups are kept.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const DEFAULT_BACKUP_SCHEDULE = '0 2 * * *';
/** Five cron fields: minute hour day month weekday. */
export const CRON_FIELDS = /^(\S+\s+){4}\S+$/;

/** BACKUP_SCHEDULE (loadConfig refuses a bad one at start; the default only stands in). */
function schedule(): string {
  const value = process.env.BACKUP_SCHEDULE?.trim();
  return value && CRON_FIELDS.test(value) ? value : DEFAULT_BACKUP_SCHEDULE;
}

export const backupScheduledJob = defineJob({
  name: 'backup-scheduled',
  description: 'Makes the scheduled backup (every table, audit logs and versions) and keeps the newest BACKUP_KEEP',
  payload: z.object({}),
  queue: { retryLimit: 2, retryDelay: 300, retryBackoff: true, expireInSeconds: 3600, policy: 'singleton' },
  cron: schedule(),
});
