// Every five minutes: starts a sync of each active endpoint whose frequency (hourly, daily or a
// cron expression) says it is due and that has no run in progress.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const integrationScheduleJob = defineJob({
  name: 'integration-schedule',
  description: 'Starts the API integration syncs that their sync frequency says are due',
  payload: z.object({}),
  queue: { retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 240, policy: 'singleton' },
  cron: '*/5 * * * *',
});
