// POST /api/ai/detect-anomalies {companyId?, departmentId?, lookbackDays: 7|14|30|90} → the
// expenses of the window that stand out (spec 3 §3): unusual amounts, duplicate charges and first
// payments to a vendor, each with severity, expected amount, deviation, explanation and advice.
// One analysis at a time per user: 429 while another of theirs runs.
import { apiRoute, readJson } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { AnomalyRequest, detectExpenseAnomalies } from '../services/ai-analytics.server.ts';
import { oneAnalysisAtATime } from '../services/analysis-limit.server.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.to('analytics'),
    body: AnomalyRequest,
    run: async ({ request, ctx }) => {
      const input = await readJson(request);
      return oneAnalysisAtATime(ctx, () => detectExpenseAnomalies(ctx, input));
    },
  },
});
