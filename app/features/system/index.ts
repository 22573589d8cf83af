// What other areas use of system in screens and shared code (schemas, components, types). Areas
// import each other through their index files only (docs/architecture.md).
export { HEALTH_LABELS, healthDetail } from './health-verdict.ts';
export { SystemInformation, type SystemFactsView, SystemStatuses } from './system-facts.tsx';
