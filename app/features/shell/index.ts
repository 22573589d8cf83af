// What other areas use of shell in screens and shared code (components). Areas import each
// other through their index files only (docs/architecture.md).
export { CompanyNotFound } from './company-not-found.tsx';
