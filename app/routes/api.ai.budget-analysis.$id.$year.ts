// GET /api/ai/budget-analysis/{companyId}/{year} → totalBudget, totalActual, variance,
// variancePercentage, per-category figures and recommendations. The company id is
// the route's `id` parameter (the route manifest's name for a row id); the year is 2024–2026.
// One analysis at a time per user: 429 while another of theirs runs.
import { apiRoute, idParam } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { analyzeCompanyBudget } from '../features/ai/ai-analytics.server.ts';
import { oneAnalysisAtATime } from '../features/ai/analysis-limit.server.ts';

const route = apiRoute(
  {
    GET: {
      allow: allow.to('analytics'),
      run: async ({ params, ctx }) => {
        const companyId = idParam(params.id);
        return oneAnalysisAtATime(ctx, () => analyzeCompanyBudget(ctx, { companyId, year: params.year }));
      },
    },
  },
  { companyScoped: true },
);

export const { loader, action } = route;
// The manifest checks one year; every year of BUDGET_YEARS is served the same way.
export const access = [{ ...route.access[0], params: { year: '2026' } }];
