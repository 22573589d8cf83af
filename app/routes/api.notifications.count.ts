// GET /api/notifications/count → { total, unread } (polled every 30 s by the bell).
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { countNotifications } from '../features/notifications/notifications.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.signedIn, run: async ({ ctx }) => countNotifications(ctx) },
});
