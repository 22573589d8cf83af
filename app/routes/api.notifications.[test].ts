// POST /api/notifications/test: a test push to the caller's own subscribed browsers, sent now →
// { sent, failed, removed }; 409 when the caller has no subscribed browser. (The brackets in the
// file name escape "test", which would otherwise mark it as a test file, not a route.)
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { sendTestPush } from '../features/notifications/push.server.ts';

export const { loader, action, access } = apiRoute({
  POST: { allow: allow.signedIn, run: async ({ ctx, context }) => sendTestPush(ctx, context.config.push) },
});
