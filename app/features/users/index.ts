// What other areas use of users in screens and shared code (schemas, components, types). Areas
// import each other through their index files only (docs/architecture.md).
export { EXAMINED_ENTRIES } from './activity-limits.ts';
export { UserFilter } from './user-filter.tsx';
