// GET /api/ai/insights?companyId → the stored insights (type, priority, impact, title,
// description, actionItems, generatedAt), most pressing first; the nightly ai-insights job
// computes them. A user limited to one company gets that company's only.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { positiveIdParam } from '../lib/query.ts';
import { listInsights } from '../services/ai-insights.server.ts';
import { invalid } from '../services/errors.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.to('analytics'),
    run: async ({ request, ctx }) => {
      const raw = new URL(request.url).searchParams.get('companyId');
      const companyId = raw ? positiveIdParam(raw) : null;
      if (raw && companyId === null) throw invalid([{ field: 'companyId', message: 'companyId must be a company id' }]);
      return listInsights(ctx, { companyId });
    },
  },
});
