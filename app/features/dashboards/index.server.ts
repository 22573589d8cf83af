// What other areas use of dashboards on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export {
  DashboardAnswer,
  EditedRowAnswer,
  EditorActivityListAnswer,
  EditorMetricsAnswer,
  EditorStatsAnswer,
} from './answers.ts';
export { ActivitiesQuery } from './editor-dashboard.server.ts';
