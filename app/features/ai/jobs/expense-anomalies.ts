// Every 5 minutes, and when a reader finds none or finds the books changed: the expense anomalies
// of the last 90 days for every company, stored for the AI Insights screen, /api, the chat and
// insights (app/features/ai/expense-anomalies.server.ts). A run whose books did not change does
// nothing; runs take at most a tenth of the time.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const expenseAnomaliesJob = defineJob({
  name: 'expense-anomalies',
  description: 'Computes and stores the expense anomalies of the last 90 days when the books changed',
  payload: z.object({}),
  queue: { retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 1800, policy: 'singleton' },
  cron: '*/5 * * * *',
});
