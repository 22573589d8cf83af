// POST /api/ai/predict-expenses {companyId?, departmentId?, categoryId?, months: 1|3|6|12} → one
// prediction per category × department: predictedAmount, confidence, historicalAverage,
// seasonalPattern, trend, factors, plus the monthly history and forecast band for charts.
// One analysis at a time per user: 429 while another of theirs runs.
import { apiRoute, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { PredictionRequest, predictExpenses } from '../features/ai/ai-analytics.server.ts';
import { oneAnalysisAtATime } from '../features/ai/analysis-limit.server.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.to('analytics'),
    body: PredictionRequest,
    run: async ({ request, ctx }) => {
      const input = await readJson(request);
      return oneAnalysisAtATime(ctx, () => predictExpenses(ctx, input));
    },
  },
});
