// GET /api/editor/metrics: the signed-in editor's own figures.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { editorMetrics } from '../features/dashboards/editor-dashboard.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('financial', 'create'), run: async ({ ctx }) => editorMetrics(ctx) },
});
