// Every 5 minutes: the audit trail's last 30 days counted per user, per action and per table for
// User Management and Editor Statistics (app/features/users/activity-window.server.ts). A run does
// nothing while the trail is unchanged and its last computation is under an hour old.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const activityWindowJob = defineJob({
  name: 'activity-window',
  description: 'Counts the last 30 days of the audit trail per user, action and table when it changed',
  payload: z.object({}),
  queue: { retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 900, policy: 'singleton' },
  cron: '*/5 * * * *',
});
