// What other areas use of backups on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { BackupAnswer, BackupListAnswer, RestoreResultAnswer, TableCsvAnswer, VerificationAnswer } from './answers.ts';
export { RestoreBody } from './backup-restore.server.ts';
export { BackupRequest, listBackups } from './backups.server.ts';
export { findCompany } from './exports.server.ts';
