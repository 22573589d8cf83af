// POST /api/notifications/mark-all-read → { total, unread, marked }.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { markAllNotificationsRead } from '../services/notifications.server.ts';

export const { loader, action, access } = apiRoute({
  POST: { allow: allow.signedIn, run: async ({ ctx }) => markAllNotificationsRead(ctx) },
});
