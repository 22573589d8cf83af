// What other areas use of notifications on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export {
  backupFinished,
  backupRestored,
  importFinished,
  integrationSyncFailed,
  integrationSyncPartial,
  passwordChanged,
  securityAnomaly,
  temporaryPasswordIssued,
  twoFactorFailures,
  twoFactorReset,
  twoFactorTurnedOff,
  twoFactorTurnedOn,
  userCreated,
  userDeactivated,
} from './notification-events.server.ts';
export {
  MarkAllReadAnswer,
  NotificationCountAnswer,
  NotificationListAnswer,
  SubscribedAnswer,
  TestPushAnswer,
  UnsubscribedAnswer,
  VapidKeyAnswer,
} from './answers.ts';
export { countNotifications, NotificationQuerySchema } from './notifications.server.ts';
export { SubscribeBody, UnsubscribeSchema } from './push.server.ts';
