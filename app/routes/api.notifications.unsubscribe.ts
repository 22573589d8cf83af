// POST /api/notifications/unsubscribe: { endpoint } removes that browser's subscription; no body
// removes every subscription of the caller → { removed }.
import { apiRoute, readJson } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { UnsubscribeSchema, unsubscribePush } from '../services/push.server.ts';

export const { loader, action, access } = apiRoute({
  POST: { allow: allow.signedIn, body: UnsubscribeSchema, run: async ({ request, ctx }) => unsubscribePush(ctx, await readJson(request)) },
});
