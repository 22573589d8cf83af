// Writes the file of a backup a user asked for (POST /api/backups, the screen, POST
// /api/backups/scheduled): the row exists already, in progress; the job completes or fails it.
// Safe to run twice: a completed backup is left alone, anything else is written again.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const backupCreateJob = defineJob({
  name: 'backup-create',
  description: 'Writes a requested backup file to BACKUP_DIR and marks the backup completed or failed',
  payload: z.object({ backupId: z.number().int().positive() }),
  // A big database takes minutes; a retry starts the file again from a fresh snapshot.
  queue: { retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 3600 },
});
