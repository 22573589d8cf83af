// What other areas use of audit on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { AnomalyListAnswer, AuditLogListAnswer, DataVersionListAnswer, VersionRestoreAnswer } from './answers.ts';
export { screenTableLabel } from './audit-readable.server.ts';
export {
  AUDIT_ACTIONS,
  AuditQuerySchema,
  listAuditLogs,
  listSecurityAnomalies,
  parseAuditQuery,
  VersionQuerySchema,
} from './audit-trail.server.ts';
