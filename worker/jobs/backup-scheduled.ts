import { backupScheduledJob } from '../../app/jobs/backup-scheduled.ts';
import { createBackupNow } from '../../app/services/backups.server.ts';
import { handleJob } from '../define.ts';

export default handleJob(backupScheduledJob, async (_payload, ctx) => {
  const backup = await createBackupNow(ctx, ctx.backups, {}, 'scheduled');
  ctx.log(`backup-scheduled: backup #${backup.id} ${backup.status} (${backup.recordCount} rows, ${backup.size} bytes)`);
  return { id: backup.id, status: backup.status, rows: backup.recordCount, size: backup.size };
});
