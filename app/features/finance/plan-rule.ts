// How a month's plan is chosen (docs/plans.md; db/aggregates.ts keeps it), in the words every
// screen that shows plans uses.
export const PLAN_RULE =
  'Plan per month: the most specific active budget (monthly, else quarterly ÷ 3, else annual ÷ 12); two plans are never added.';
export const PROJECTION_RULE =
  'Projection per month: the most specific active projection (monthly, else quarterly ÷ 3, else annual ÷ 12).';
