// What other areas use of ai in screens and shared code (schemas, components, types). Areas
// import each other through their index files only (docs/architecture.md).
export { analyzeBudget, ON_TARGET_PERCENT } from './stats/budget-variance.ts';
export { addMonths } from './stats/forecast.ts';
