// POST /api/ai/detect-anomalies {companyId?, departmentId?, lookbackDays: 7|14|30|90, limit?, offset?}
// → the expenses of the window that stand out: unusual amounts, duplicate charges and
// first payments to a vendor, each with severity, expected amount, deviation, explanation and
// advice, most severe first. They are read from the findings the expense-anomalies job stores:
// X-Computed-At says when they were computed, X-Total-Count how many the window holds (limit
// default and maximum 1000). Before the first computation: 429 with Retry-After, as when the
// same work is already running (it is: the read asked for it), so clients retry as they did.
import { apiRoute, apiJson, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { ANOMALIES_COMPUTING, AnomalyRequest, detectExpenseAnomalies } from '../features/ai/ai-anomalies.server.ts';
import { DomainError } from '../platform/errors.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.to('analytics'),
    body: AnomalyRequest,
    run: async ({ request, ctx }) => {
      const page = await detectExpenseAnomalies(ctx, await readJson(request));
      if (page.computedAt === null) throw new DomainError('rateLimited', ANOMALIES_COMPUTING, { retryAfter: 30 });
      return apiJson(page.anomalies, {
        headers: { 'X-Total-Count': String(page.total), 'X-Computed-At': page.computedAt },
      });
    },
  },
});
