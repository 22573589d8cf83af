import { integrationSyncJob } from './integration-sync.ts';
import { runSync } from '../integration-sync.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(integrationSyncJob, async (payload, ctx) => {
  const log = await runSync(ctx, ctx.integrations, payload.logId);
  ctx.log(
    `integration-sync: run #${log.id} ${log.status} (${log.recordsProcessed} processed, ${log.recordsCreated} created, ${log.recordsUpdated} updated, ${log.recordsUnchanged} unchanged, ${log.recordsSkipped} skipped)${log.status === 'partial' && log.errorMessage ? `: ${log.errorMessage}` : ''}`,
  );
  return { id: log.id, status: log.status };
});
