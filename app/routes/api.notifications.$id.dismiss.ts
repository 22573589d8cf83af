// POST /api/notifications/{id}/dismiss → the new { total, unread }. A notification that does
// not reach the caller is a 404.
import { apiRoute, idParam } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { dismissNotification } from '../services/notifications.server.ts';

export const { loader, action, access } = apiRoute({
  POST: { allow: allow.signedIn, run: async ({ params, ctx }) => dismissNotification(ctx, idParam(params.id)) },
});
