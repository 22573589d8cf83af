// GET /api/admin/editor-activity-history (owners and admins): the editors' last 100 writes.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { editorActivityHistory } from '../features/users/editor-stats.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('admin'), run: async ({ ctx }) => editorActivityHistory(ctx) },
});
