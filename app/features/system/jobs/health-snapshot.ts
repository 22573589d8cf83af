// Every minute: CPU, memory, disk, database size and round trip for System Monitoring
// (app/features/system/health.server.ts); snapshots older than 7 days go in the same run.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const healthSnapshotJob = defineJob({
  name: 'health-snapshot',
  description: 'Records CPU, memory, disk and database figures; keeps 7 days',
  payload: z.object({ sampleMs: z.number().int().min(0).max(5000).default(200) }),
  queue: { retryLimit: 1, retryDelay: 5, retryBackoff: false, expireInSeconds: 60, policy: 'singleton' },
  cron: '* * * * *',
});
