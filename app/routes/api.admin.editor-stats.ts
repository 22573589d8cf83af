// GET /api/admin/editor-stats (owners and admins): every editor ranked by
// activity score, the summary, the level distribution and the per-company analytics.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { editorStats } from '../services/editor-stats.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('admin'), run: async ({ ctx }) => editorStats(ctx) } });
