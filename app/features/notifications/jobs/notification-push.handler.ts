import { notificationPushJob } from './notification-push.ts';
import { fanOutNotificationPush } from '../push.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

/** Throws (for a retry) while the notification is not visible yet; gives up quietly on the last attempt. */
export default handleJob(notificationPushJob, async (payload, ctx) => {
  const attempt = { retryCount: ctx.job.retryCount, retryLimit: notificationPushJob.queue.retryLimit };
  const result = await fanOutNotificationPush(ctx, ctx.push, payload.notificationId, attempt);
  ctx.log(
    'skipped' in result
      ? `notification-push: notification #${payload.notificationId} not pushed (${result.skipped})`
      : `notification-push: notification #${payload.notificationId} sent to ${result.subscriptions} browser(s)`,
  );
  return result;
});
