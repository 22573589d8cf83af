// What other areas use of company-metrics in screens and shared code (schemas, components, types). Areas
// import each other through their index files only (docs/architecture.md).
export { EmptyState } from './screen-parts.tsx';
