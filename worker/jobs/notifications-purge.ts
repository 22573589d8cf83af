import { notificationsPurgeJob } from '../../app/jobs/notifications-purge.ts';
import { purgeExpiredNotifications } from '../../app/services/notifications.server.ts';
import { purgeFailingSubscriptions } from '../../app/services/push.server.ts';
import { handleJob } from '../define.ts';

export default handleJob(notificationsPurgeJob, async (_payload, ctx) => {
  const now = new Date();
  const notifications = await purgeExpiredNotifications(ctx.db, now);
  const subscriptions = await purgeFailingSubscriptions(ctx.db, now);
  ctx.log(`notifications-purge: ${notifications.deleted} expired notification(s) and ${subscriptions.removed} failing push subscription(s) removed`);
  return { notifications: notifications.deleted, subscriptions: subscriptions.removed };
});
