// Daily: login attempts older than 30 days serve no throttling window and are deleted.
import { z } from 'zod';
import { defineJob } from '../define.ts';

export default defineJob({
  name: 'purge-login-attempts',
  description: 'Deletes login attempts older than 30 days',
  payload: z.object({ olderThanDays: z.number().int().min(1).default(30) }),
  queue: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 300, policy: 'singleton' },
  cron: '17 3 * * *',
  async handler(payload, ctx) {
    const cutoff = new Date(Date.now() - payload.olderThanDays * 86_400_000).toISOString();
    const result = await ctx.db.deleteFrom('loginAttempts').where('createdAt', '<', cutoff).executeTakeFirst();
    return { deleted: Number(result.numDeletedRows) };
  },
});
