import { notificationsPurgeJob } from './notifications-purge.ts';
import { purgeExpiredNotifications } from '../notifications.server.ts';
import { purgeFailingSubscriptions } from '../push.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(notificationsPurgeJob, async (_payload, ctx) => {
  const now = new Date();
  const notifications = await purgeExpiredNotifications(ctx.db, now);
  const subscriptions = await purgeFailingSubscriptions(ctx.db, now);
  ctx.log(
    `notifications-purge: ${notifications.deleted} expired notification(s) and ${subscriptions.removed} failing push subscription(s) removed`,
  );
  return { notifications: notifications.deleted, subscriptions: subscriptions.removed };
});
