import { auditRetentionJob } from './audit-retention.ts';
import { pruneAuditTrail } from '../audit-retention.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

/** AUDIT_RETENTION_DAYS comes from the process's configuration (ctx.auditRetentionDays). */
export default handleJob(auditRetentionJob, async (payload, ctx) => {
  const retentionDays = ctx.auditRetentionDays;
  if (retentionDays === null) {
    ctx.log('audit-retention: AUDIT_RETENTION_DAYS is not set, the audit trail is kept forever');
    return { skipped: true, reason: 'AUDIT_RETENTION_DAYS is not set' };
  }
  const result = await pruneAuditTrail(ctx, { retentionDays, batchSize: payload.batchSize });
  ctx.log(
    `audit-retention: ${result.auditLogs} audit entries and ${result.dataVersions} versions of deleted records older than ${result.cutoff} deleted`,
  );
  return { skipped: false, retentionDays, ...result };
});
