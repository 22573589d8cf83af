// GET /api/notifications/vapid-public-key → { publicKey } (503 when push is not configured).
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { vapidPublicKey } from '../features/notifications/push.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.signedIn, run: async ({ context }) => vapidPublicKey(context.config.push) },
});
