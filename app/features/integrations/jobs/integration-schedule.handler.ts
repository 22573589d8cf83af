import { integrationScheduleJob } from './integration-schedule.ts';
import { startDueSyncs } from '../integration-sync.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(integrationScheduleJob, async (_payload, ctx) => {
  const started = await startDueSyncs(ctx, ctx.integrations);
  if (started.length) ctx.log(`integration-schedule: started run(s) ${started.join(', ')}`);
  return { started };
});
