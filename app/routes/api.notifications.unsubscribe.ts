// POST /api/notifications/unsubscribe: { endpoint } removes that browser's subscription; no body
// removes every subscription of the caller → { removed }.
import { apiRoute, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { UnsubscribeSchema, unsubscribePush } from '../features/notifications/push.server.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.signedIn,
    body: UnsubscribeSchema,
    run: async ({ request, ctx }) => unsubscribePush(ctx, await readJson(request)),
  },
});
