// GET /api/api-performance-analysis: computed from the sync logs, endpoints and audit trail (integration-analysis.server.ts).
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { analyzePerformance } from '../features/integrations/integration-analysis.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('integrations'), run: async ({ ctx }) => analyzePerformance(ctx) },
});
