// One Web Push message to one browser: 404/410 from the push service removes the subscription,
// other failures retry with backoff, and a subscription failing for 7 days is removed. The last
// attempt records the failure and ends normally, so push never feeds the dead-letter queue (whose
// own notification would be pushed again).
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const pushSendJob = defineJob({
  name: 'push-send',
  description: 'Delivers one notification to one subscribed browser through its push service',
  payload: z.object({ notificationId: z.number().int().positive(), subscriptionId: z.number().int().positive() }),
  queue: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
});
