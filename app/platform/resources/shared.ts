// Pieces several declarations share: the department/category joins of budgets and expenses,
// the company join, and display labels of enumerations. The fields referencing a declaration
// (the company picker, the department/category pair) are beside the declarations
// (app/features/finance).
import { PERIODS, STATUSES } from '../../../db/types.ts';
import type { FieldOf, FilterOf, JoinOf } from './define.ts';
import { msg } from '../i18n/messages.ts';

export const PERIOD_LABELS: Record<string, string> = {
  daily: msg('Daily'),
  weekly: msg('Weekly'),
  monthly: msg('Monthly'),
  quarterly: msg('Quarterly'),
  annual: msg('Annual'),
};
export const STATUS_LABELS: Record<string, string> = {
  active: msg('Active'),
  pending: msg('Pending'),
  expired: msg('Expired'),
};
export const COMPANY_TYPE_LABELS: Record<string, string> = {
  mobile: msg('Mobile'),
  infrastructure: msg('Infrastructure'),
  fintech: msg('Fintech'),
  marketing: msg('Marketing'),
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
  label: msg('Department'),
  column: 'departmentId',
};
export const SOURCE_FILTER: FilterOf<'revenueProjections' | 'actualRevenue'> = {
  param: 'source',
  label: msg('Source'),
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
  new_subscribers: msg('New Subscribers'),
  active_subscribers: msg('Active Subscribers'),
  churned_subscribers: msg('Churned Subscribers'),
  arpu: msg('ARPU'),
  data_usage: msg('Data Usage (GB)'),
  voice_minutes: msg('Voice Minutes'),
  sms_count: msg('SMS Count'),
  roaming_revenue: msg('Roaming Revenue'),
  new_users: msg('New Users'),
  active_users: msg('Active Users'),
  transaction_volume: msg('Transaction Volume'),
  transaction_count: msg('Transaction Count'),
  aum: msg('Assets Under Management'),
  loan_origination: msg('Loan Origination'),
  default_rate: msg('Default Rate (%)'),
  customer_acquisition_cost: msg('Customer Acquisition Cost'),
};

/** Budgets and revenue projections: the period, its dates, the status and a description. */
export const plannedPeriodFields = [
  {
    name: 'period',
    label: msg('Period'),
    kind: 'enum',
    options: PERIODS,
    optionLabels: PERIOD_LABELS,
    defaultValue: 'monthly',
  },
  { name: 'startDate', label: msg('Start Date'), kind: 'date', required: true },
  { name: 'endDate', label: msg('End Date'), kind: 'date', required: true },
  {
    name: 'status',
    label: msg('Status'),
    kind: 'enum',
    options: STATUSES,
    optionLabels: STATUS_LABELS,
    defaultValue: 'active',
    required: false,
  },
  { name: 'description', label: msg('Description'), kind: 'textarea', max: 1000 },
] as const satisfies readonly FieldOf<'budgets' | 'revenueProjections'>[];
