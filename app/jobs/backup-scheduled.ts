// The scheduled backup (spec 3 §2.3, DESIGN §7): daily by default (BACKUP_SCHEDULE, cron, UTC),
// every table with the audit logs and versions; afterwards only the newest BACKUP_KEEP scheduled
// backups are kept.
import { z } from 'zod';
import { backupSettingsFrom } from '../services/config.server.ts';
import { defineJob } from './define.ts';

/** BACKUP_SCHEDULE as validated at start (loadConfig refuses a bad one; the default here only stands in). */
function schedule(): string {
  try {
    return backupSettingsFrom(process.env).schedule;
  } catch {
    return '0 2 * * *';
  }
}

export const backupScheduledJob = defineJob({
  name: 'backup-scheduled',
  description: 'Makes the scheduled backup (every table, audit logs and versions) and keeps the newest BACKUP_KEEP',
  payload: z.object({}),
  queue: { retryLimit: 2, retryDelay: 300, retryBackoff: true, expireInSeconds: 3600, policy: 'singleton' },
  cron: schedule(),
});
