import { aiInsightsJob } from '../../app/jobs/ai-insights.ts';
import { purgeEndedConversations } from '../../app/services/ai-conversation.server.ts';
import { generateAllInsights } from '../../app/services/ai-insights.server.ts';
import { handleJob } from '../define.ts';

export default handleJob(aiInsightsJob, async (_payload, ctx) => {
  const result = await generateAllInsights(ctx.db, new Date(), ctx.openai);
  const conversations = await purgeEndedConversations(ctx.db);
  ctx.log(`ai-insights: ${result.insights} insight(s) for the group and ${result.companies} companies; ${conversations} chat message(s) of ended sessions dropped`);
  return { ...result, chatMessagesPurged: conversations };
});
