import { backupCreateJob } from './backup-create.ts';
import { runBackup } from '../backups.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(backupCreateJob, async (payload, ctx) => {
  const backup = await runBackup(ctx, ctx.backups, payload.backupId);
  ctx.log(`backup-create: backup #${backup.id} ${backup.status} (${backup.recordCount} rows, ${backup.size} bytes)`);
  return { id: backup.id, status: backup.status, rows: backup.recordCount, size: backup.size };
});
