// What other areas use of notifications in screens and shared code (schemas, components, types). Areas
// import each other through their index files only (docs/architecture.md).
export { NotificationBell } from './bell.tsx';
export {
  activateNewVersion,
  currentSubscription,
  pushSupported,
  registerServiceWorker,
  storeDeviceSettings,
  subscribeBrowser,
  watchForNewVersion,
} from './service-worker.ts';
export { TEST_PUSH_LIMIT, TEST_PUSHES_PER_MINUTE } from './push-refusals.ts';
