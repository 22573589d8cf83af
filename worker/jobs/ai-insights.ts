import { aiInsightsJob } from '../../app/jobs/ai-insights.ts';
import { generateAllInsights } from '../../app/services/ai-insights.server.ts';
import { handleJob } from '../define.ts';

export default handleJob(aiInsightsJob, async (_payload, ctx) => {
  const result = await generateAllInsights(ctx.db);
  ctx.log(`ai-insights: ${result.insights} insight(s) for the group and ${result.companies} companies`);
  return result;
});
