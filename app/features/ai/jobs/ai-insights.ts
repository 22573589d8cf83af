// Nightly: the AI insights of the group and of every company, computed from the books and stored
// (each run replaces the previous insights of the same company), with a narrated summary when a
// language model is configured; it also drops the chat conversations of ended sessions.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const aiInsightsJob = defineJob({
  name: 'ai-insights',
  description: "Computes and stores the AI insights of the group and of every company; drops ended sessions' chats",
  payload: z.object({}),
  queue: { retryLimit: 2, retryDelay: 300, retryBackoff: true, expireInSeconds: 1800, policy: 'singleton' },
  cron: '15 4 * * *',
});
