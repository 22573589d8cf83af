// The registry of declared resources, in this order (companies, departments,
// expense categories, budgets, actual expenses, revenue projections, actual revenue, subscriber
// metrics, then the company metrics of One Network and Vult): the /api paths, the whole-table exports and the audit trail's table filter all
// derive from it.
import { snakeCase } from '../platform/lib/names.ts';
import { actualExpenses } from './finance/actual-expenses.ts';
import { actualRevenue } from './finance/actual-revenue.ts';
import { budgets } from './finance/budgets.ts';
import { companies } from './finance/companies.ts';
import type { ResourceDef } from '../platform/resources/define.ts';
import { departments } from './finance/departments.ts';
import { expenseCategories } from './finance/expense-categories.ts';
import { revenueProjections } from './finance/revenue-projections.ts';
import { fintechMetrics, mobileMetrics, subscriberMetrics } from './company-metrics/subscriber-metrics.ts';
import { broadbandConnections, mobileAccessMethods, mobileSubscriptions } from './company-metrics/network-data.ts';
import {
  networkAccessRecords,
  networkBroadbandRecords,
  networkSubscriptionPatterns,
} from './company-metrics/one-network.ts';
import { vultCardTypes, vultSubscriberLevels, vultSubscriberMetrics } from './company-metrics/vult.ts';
import { apiIntegrationEndpoints, apiIntegrationSources } from './integrations/resources.ts';

/** Every declared resource. */
export const RESOURCE_LIST: readonly ResourceDef[] = [
  companies,
  departments,
  expenseCategories,
  budgets,
  actualExpenses,
  revenueProjections,
  actualRevenue,
  subscriberMetrics,
  broadbandConnections,
  mobileSubscriptions,
  mobileAccessMethods,
  networkBroadbandRecords,
  networkSubscriptionPatterns,
  networkAccessRecords,
  vultSubscriberMetrics,
  vultSubscriberLevels,
  vultCardTypes,
  apiIntegrationSources,
  apiIntegrationEndpoints,
];

const BY_KEY = new Map<string, ResourceDef>(RESOURCE_LIST.map((def) => [def.key, def]));

/** A resource by its /api path segment ('actual-revenues'). */
export function findResource(key: string | undefined): ResourceDef | undefined {
  return key === undefined ? undefined : BY_KEY.get(key);
}

/** Tables whose writes the audit trail records (snake_case, as stored) with their labels: users, then every resource. */
export const AUDITED_TABLES: readonly { value: string; label: string }[] = [
  { value: 'users', label: 'Users' },
  ...RESOURCE_LIST.map((def) => ({ value: snakeCase(def.table), label: def.auditLabel ?? def.title })),
];

export {
  actualExpenses,
  actualRevenue,
  budgets,
  companies,
  departments,
  expenseCategories,
  revenueProjections,
  subscriberMetrics,
};
export {
  broadbandConnections,
  mobileAccessMethods,
  mobileSubscriptions,
  networkAccessRecords,
  networkBroadbandRecords,
  networkSubscriptionPatterns,
};
export { vultCardTypes, vultSubscriberLevels, vultSubscriberMetrics };
/** Subscriber metrics as the Mobile Metrics and Fintech Metrics screens word them. */
export { fintechMetrics, mobileMetrics };
