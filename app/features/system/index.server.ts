// What other areas use of system on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { uptimePercent } from './health.server.ts';
export { APP_VERSION, getSystemFacts } from './system-info.server.ts';
export {
  type ApiFigures,
  ErrorQuery,
  healthVerdict,
  type HealthVerdict,
  PageQuery,
  ResolveRequest,
} from './system-monitoring.server.ts';
export {
  HealthVerdictAnswer,
  RecoveryActionListAnswer,
  SystemErrorAnswer,
  SystemErrorListAnswer,
  SystemHealthAnswer,
} from './answers.ts';
