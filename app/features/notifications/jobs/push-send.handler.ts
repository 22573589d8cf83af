import { pushSendJob } from './push-send.ts';
import { sendToSubscription } from '../push.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

/** Throws (for a retry with backoff) while retries remain; the last attempt records the failure and ends normally. */
export default handleJob(pushSendJob, async (payload, ctx) => {
  const attempt = { retryCount: ctx.job.retryCount, retryLimit: pushSendJob.queue.retryLimit };
  const result = await sendToSubscription(ctx, ctx.push, payload.notificationId, payload.subscriptionId, attempt);
  ctx.log(`push-send: notification #${payload.notificationId} to browser #${payload.subscriptionId}: ${result.status}`);
  return result;
});
