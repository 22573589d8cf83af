// i18n-area: settings
// The refusals of a test push, which the settings page's device panel shows: the /api answers
// their English, and the panel words them again for its reader (its catalog holds them).
// Isomorphic.
import { msg } from '../../platform/i18n/messages.ts';

export const TEST_PUSHES_PER_MINUTE = 5;
export const TEST_PUSH_RUNNING = msg('A test notification is already being sent. Try again in a few seconds.');
export const TEST_PUSH_LIMIT = msg(
  'Too many test notifications: at most {max} a minute. Try again in {seconds} seconds.',
);
export const NO_SUBSCRIBED_BROWSER = msg('No browser of yours is subscribed to push notifications');
