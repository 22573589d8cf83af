// GET /api/admin/editor-stats (owners and admins): every editor ranked by
// activity score, the summary, the level distribution and the per-company analytics.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { editorStats } from '../features/users/editor-stats.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('admin'), run: async ({ ctx }) => editorStats(ctx) },
});
