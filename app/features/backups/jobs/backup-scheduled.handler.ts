import { backupScheduledJob } from './backup-scheduled.ts';
import { createBackupNow } from '../backups.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(backupScheduledJob, async (_payload, ctx) => {
  const backup = await createBackupNow(ctx, ctx.backups, {}, 'scheduled');
  ctx.log(`backup-scheduled: backup #${backup.id} ${backup.status} (${backup.recordCount} rows, ${backup.size} bytes)`);
  return { id: backup.id, status: backup.status, rows: backup.recordCount, size: backup.size };
});
