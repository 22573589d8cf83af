// What other areas use of integrations on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { analyzePerformance } from './integration-analysis.server.ts';
export { CredentialRequest } from './integration-credentials.server.ts';
export { listSyncLogs, SyncLogQuery, SyncRequest } from './integration-sync.server.ts';
export {
  CredentialSummaryAnswer,
  PerformanceAnalysisAnswer,
  RecommendationListAnswer,
  SyncLogListAnswer,
  SyncStartedAnswer,
  TimelineListAnswer,
} from './answers.ts';
