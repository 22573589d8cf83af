import { integrationScheduleJob } from '../../app/jobs/integration-schedule.ts';
import { startDueSyncs } from '../../app/services/integration-sync.server.ts';
import { handleJob } from '../define.ts';

export default handleJob(integrationScheduleJob, async (_payload, ctx) => {
  const started = await startDueSyncs(ctx.db, ctx.integrations);
  if (started.length) ctx.log(`integration-schedule: started run(s) ${started.join(', ')}`);
  return { started };
});
