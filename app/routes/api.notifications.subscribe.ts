// POST /api/notifications/subscribe: endpoint, keys { p256dh, auth } → 201 { subscribed }.
// The endpoint must be https on a public address (ALLOW_PRIVATE_TARGETS=1 also allows http and
// private addresses).
import { apiRoute, apiJson, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { SubscribeBody, subscribePush } from '../features/notifications/push.server.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.signedIn,
    body: SubscribeBody,
    run: async ({ request, ctx, context }) =>
      apiJson(await subscribePush(ctx, context.config.push, await readJson(request)), { status: 201 }),
  },
});
