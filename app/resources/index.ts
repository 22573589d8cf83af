// The registry of declared resources, keyed by their /api path segment.
import { actualExpenses } from './actual-expenses.ts';
import { actualRevenue } from './actual-revenue.ts';
import { budgets } from './budgets.ts';
import { companies } from './companies.ts';
import type { ResourceDef } from './define.ts';
import { departments } from './departments.ts';
import { expenseCategories } from './expense-categories.ts';
import { revenueProjections } from './revenue-projections.ts';
import { subscriberMetrics } from './subscriber-metrics.ts';

export const RESOURCES: Record<string, ResourceDef> = Object.fromEntries(
  [companies, departments, expenseCategories, budgets, actualExpenses, revenueProjections, actualRevenue, subscriberMetrics].map((def) => [def.key, def]),
);

export function findResource(key: string | undefined): ResourceDef | undefined {
  return key && Object.hasOwn(RESOURCES, key) ? RESOURCES[key] : undefined;
}

export { actualExpenses, actualRevenue, budgets, companies, departments, expenseCategories, revenueProjections, subscriberMetrics };
