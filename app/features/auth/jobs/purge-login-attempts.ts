// Daily: login attempts older than 30 days serve no throttling window and are deleted
// (purgeLoginAttempts in app/platform/http/throttle.server.ts).
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const purgeLoginAttemptsJob = defineJob({
  name: 'purge-login-attempts',
  description: 'Deletes login attempts older than 30 days',
  payload: z.object({ olderThanDays: z.number().int().min(1).default(30) }),
  queue: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 300, policy: 'singleton' },
  cron: '17 3 * * *',
});
