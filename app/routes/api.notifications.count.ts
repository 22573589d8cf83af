// GET /api/notifications/count → { total, unread } (polled every 30 s by the bell).
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { countNotifications } from '../services/notifications.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.signedIn, run: async ({ ctx }) => countNotifications(ctx) },
});
