// One API integration sync run (POST /api/api-integration-sync/{id}, 'Sync Now', the schedule):
// the running sync log exists; the job pulls or pushes and completes or fails it. Safe to run
// twice: a log that is no longer running is left alone, and a delivery made while the run still
// goes (the job expired, pg-boss delivered it again) finds the log's lease held and leaves it.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const integrationSyncJob = defineJob({
  name: 'integration-sync',
  description: 'Runs one API integration sync and writes its sync log',
  payload: z.object({ logId: z.number().int().positive() }),
  // The run records its own failure in the log; a retry only follows a crash mid-run.
  queue: { retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 1800 },
});
