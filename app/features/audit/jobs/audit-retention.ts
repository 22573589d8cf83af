// Nightly: audit log entries older than AUDIT_RETENTION_DAYS, and the versions older than that
// of records that no longer exist, are deleted in batches (pruneAuditTrail in
// app/features/audit/audit-retention.server.ts). With AUDIT_RETENTION_DAYS unset the job does nothing:
// the audit trail is kept forever.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const auditRetentionJob = defineJob({
  name: 'audit-retention',
  description:
    'Deletes audit entries older than AUDIT_RETENTION_DAYS (and old versions of deleted records); nothing when unset',
  payload: z.object({ batchSize: z.number().int().min(1).max(10_000).default(1000) }),
  // A first prune of a large trail can take a while: batches commit as they go, so an expired
  // or retried run simply continues where the last one stopped.
  queue: { retryLimit: 3, retryDelay: 300, retryBackoff: true, expireInSeconds: 3600, policy: 'singleton' },
  cron: '30 3 * * *',
});
