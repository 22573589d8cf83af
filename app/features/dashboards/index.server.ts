// What other areas use of dashboards on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { ActivitiesQuery } from './editor-dashboard.server.ts';
