// Nightly: removes expired notifications (their read states go with them) and browsers whose
// push subscription has failed for 7 days.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const notificationsPurgeJob = defineJob({
  name: 'notifications-purge',
  description: 'Removes expired notifications and push subscriptions failing for 7 days',
  payload: z.object({}),
  queue: { retryLimit: 2, retryDelay: 300, retryBackoff: true, expireInSeconds: 600, policy: 'singleton' },
  cron: '45 3 * * *',
});
