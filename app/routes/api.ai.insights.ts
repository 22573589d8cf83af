// GET /api/ai/insights?companyId → the stored insights (type, priority, impact, title,
// description, actionItems, generatedAt), most pressing first; the nightly ai-insights job
// computes them. A user limited to one company gets that company's only.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { positiveIdParam } from '../platform/lib/query.ts';
import { listInsights } from '../features/ai/ai-insights.server.ts';
import { invalid } from '../platform/errors.ts';

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
