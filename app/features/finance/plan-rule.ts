// How a month's plan is chosen (docs/plans.md; db/aggregates.ts keeps it), in the words every
// screen that shows plans uses.
import { msg } from '../../platform/i18n/messages.ts';

export const PLAN_RULE = msg(
  'Plan per month: the most specific active budget (monthly, else quarterly ÷ 3, else annual ÷ 12); two plans are never added.',
);
export const PROJECTION_RULE = msg(
  'Projection per month: the most specific active projection (monthly, else quarterly ÷ 3, else annual ÷ 12).',
);
