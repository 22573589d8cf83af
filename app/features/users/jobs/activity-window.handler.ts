import { activityWindowJob } from './activity-window.ts';
import { refreshActivityWindow } from '../activity-window.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(activityWindowJob, async (_payload, ctx) => {
  const result = await refreshActivityWindow(ctx.db);
  if (result.skipped === null)
    ctx.log(`activity-window: ${result.users} user(s) counted in ${result.seconds.toFixed(1)} s`);
  return result;
});
