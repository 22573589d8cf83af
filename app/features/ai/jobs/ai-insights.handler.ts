import { aiInsightsJob } from './ai-insights.ts';
import { purgeEndedConversations } from '../ai-conversation.server.ts';
import { generateAllInsights } from '../ai-insights.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(aiInsightsJob, async (_payload, ctx) => {
  const result = await generateAllInsights(ctx, new Date(), ctx.openai);
  const conversations = await purgeEndedConversations(ctx.db);
  ctx.log(
    `ai-insights: ${result.insights} insight(s) for the group and ${result.companies} companies; ${conversations} chat message(s) of ended sessions dropped`,
  );
  return { ...result, chatMessagesPurged: conversations };
});
