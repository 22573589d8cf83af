// POST /api/notifications/{id}/dismiss → the new { total, unread }. A notification that does
// not reach the caller is a 404.
import { apiRoute, idParam } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { dismissNotification } from '../features/notifications/notifications.server.ts';

export const { loader, action, access } = apiRoute({
  POST: { allow: allow.signedIn, run: async ({ params, ctx }) => dismissNotification(ctx, idParam(params.id)) },
});
