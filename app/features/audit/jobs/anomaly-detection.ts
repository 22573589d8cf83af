// Every 15 minutes (docs/jobs.md): 5 or more deletes by one user within 10 minutes is a security
// anomaly (app/features/audit/anomalies.server.ts). Runs look back further than their interval so a
// burst across two runs is still seen.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const anomalyDetectionJob = defineJob({
  name: 'anomaly-detection',
  description: 'Flags users with 5 or more deletes within 10 minutes',
  payload: z.object({
    threshold: z.number().int().min(2).default(5),
    windowMinutes: z.number().int().min(1).default(10),
    lookbackMinutes: z.number().int().min(1).default(60),
  }),
  queue: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 300, policy: 'singleton' },
  cron: '*/15 * * * *',
});
