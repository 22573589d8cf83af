// What other areas use of finance in screens and shared code (schemas, components, types). Areas
// import each other through their index files only (docs/architecture.md).
export { companies, companyField } from './companies.ts';
export { PLAN_RULE, PROJECTION_RULE } from './plan-rule.ts';
