// GET /api/editor/metrics: the signed-in editor's own figures.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { editorMetrics } from '../services/editor-dashboard.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('financial', 'create'), run: async ({ ctx }) => editorMetrics(ctx) } });
