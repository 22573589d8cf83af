// POST /api/notifications/mark-all-read → { total, unread, marked }.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { markAllNotificationsRead } from '../features/notifications/notifications.server.ts';

export const { loader, action, access } = apiRoute({
  POST: { allow: allow.signedIn, run: async ({ ctx }) => markAllNotificationsRead(ctx) },
});
