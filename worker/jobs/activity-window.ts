import { activityWindowJob } from '../../app/jobs/activity-window.ts';
import { refreshActivityWindow } from '../../app/services/activity-window.server.ts';
import { handleJob } from '../define.ts';

export default handleJob(activityWindowJob, async (_payload, ctx) => {
  const result = await refreshActivityWindow(ctx.db);
  if (result.skipped === null) ctx.log(`activity-window: ${result.users} user(s) counted in ${result.seconds.toFixed(1)} s`);
  return result;
});
