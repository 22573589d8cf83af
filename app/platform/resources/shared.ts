// Pieces several declarations share: the department/category joins of budgets and expenses,
// the company join, and display labels of enumerations. The fields referencing a declaration
// (the company picker, the department/category pair) are beside the declarations
// (app/features/finance).
import { PERIODS, STATUSES } from '../../../db/types.ts';
import type { FieldOf, FilterOf, JoinOf } from './define.ts';

export const PERIOD_LABELS: Record<string, string> = {
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  annual: 'Annual',
};
export const STATUS_LABELS: Record<string, string> = { active: 'Active', pending: 'Pending', expired: 'Expired' };
export const COMPANY_TYPE_LABELS: Record<string, string> = {
  mobile: 'Mobile',
  infrastructure: 'Infrastructure',
  fintech: 'Fintech',
  marketing: 'Marketing',
};

export const companyJoin = {
  table: 'companies',
  alias: 'c',
  on: 'companyId',
  select: { companyName: 'name', companyType: 'type' },
} as const satisfies JoinOf<
  'budgets' | 'actualExpenses' | 'revenueProjections' | 'actualRevenue' | 'subscriberMetrics'
>;

export const categoryJoins = [
  { table: 'departments', alias: 'd', on: 'departmentId', select: { departmentName: 'name' } },
  { table: 'expenseCategories', alias: 'cat', on: 'categoryId', select: { categoryName: 'name' } },
  companyJoin,
] as const satisfies readonly JoinOf<'budgets' | 'actualExpenses'>[];

export const DEPARTMENT_FILTER: FilterOf<'budgets' | 'actualExpenses'> = {
  param: 'departmentId',
  label: 'Department',
  column: 'departmentId',
};
export const SOURCE_FILTER: FilterOf<'revenueProjections' | 'actualRevenue'> = {
  param: 'source',
  label: 'Source',
  column: 'source',
  leadsIndex: true,
};

export const REVENUE_SOURCES = [
  'Prepaid Airtime',
  'Postpaid Plans',
  'Data Bundles',
  'Device Sales',
  'Roaming',
  'Card Interchange',
  'Transaction Fees',
  'Lending Interest',
  'Subscription Plans',
  'Tower Leasing',
  'Fibre Leasing',
  'Colocation',
  'Retainers',
  'Campaign Fees',
  'Media Commissions',
] as const;

export const MOBILE_METRICS = [
  'new_subscribers',
  'active_subscribers',
  'churned_subscribers',
  'arpu',
  'data_usage',
  'voice_minutes',
  'sms_count',
  'roaming_revenue',
] as const;
export const FINTECH_METRICS = [
  'new_users',
  'active_users',
  'transaction_volume',
  'transaction_count',
  'aum',
  'loan_origination',
  'default_rate',
  'customer_acquisition_cost',
] as const;
export const METRIC_LABELS: Record<string, string> = {
  new_subscribers: 'New Subscribers',
  active_subscribers: 'Active Subscribers',
  churned_subscribers: 'Churned Subscribers',
  arpu: 'ARPU',
  data_usage: 'Data Usage (GB)',
  voice_minutes: 'Voice Minutes',
  sms_count: 'SMS Count',
  roaming_revenue: 'Roaming Revenue',
  new_users: 'New Users',
  active_users: 'Active Users',
  transaction_volume: 'Transaction Volume',
  transaction_count: 'Transaction Count',
  aum: 'Assets Under Management',
  loan_origination: 'Loan Origination',
  default_rate: 'Default Rate (%)',
  customer_acquisition_cost: 'Customer Acquisition Cost',
};

/** Budgets and revenue projections: the period, its dates, the status and a description. */
export const plannedPeriodFields = [
  {
    name: 'period',
    label: 'Period',
    kind: 'enum',
    options: PERIODS,
    optionLabels: PERIOD_LABELS,
    defaultValue: 'monthly',
  },
  { name: 'startDate', label: 'Start Date', kind: 'date', required: true },
  { name: 'endDate', label: 'End Date', kind: 'date', required: true },
  {
    name: 'status',
    label: 'Status',
    kind: 'enum',
    options: STATUSES,
    optionLabels: STATUS_LABELS,
    defaultValue: 'active',
    required: false,
  },
  { name: 'description', label: 'Description', kind: 'textarea', max: 1000 },
] as const satisfies readonly FieldOf<'budgets' | 'revenueProjections'>[];
