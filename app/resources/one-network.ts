// One Network's monthly records (spec 2 §3, the /one-network-subscription-metrics screen):
// broadband, mobile subscription patterns and mobile access, one row per month, all belonging
// to the company named exactly 'One Network'. /api/one-network/broadband-connections,
// /api/one-network/mobile-subscription-patterns, /api/one-network/mobile-access-methods.
import { defineResource, messagesFor, type Messages } from './define.ts';
import { byMonth, count, exactMonth, monthColumns, monthField, monthSorts, percent, yearField } from './metric-fields.ts';
import { companyJoin } from './shared.ts';

/** The company these records belong to (spec 2 §9: identified by this exact name). */
export const ONE_NETWORK = 'One Network';

/** Spec 2 §8: 'Failed to create broadband connection record', …; deletes ask about 'this record'. */
function recordMessages(noun: string): Messages {
  return { ...messagesFor(noun), confirmDelete: 'Are you sure you want to delete this record?' };
}

const oneRecordPerMonth = 'A record for this month already exists';
const oneNetwork = { named: ONE_NETWORK } as const;
const join = [{ ...companyJoin, select: { companyName: 'name' } }] as const;

export const networkBroadbandRecords = defineResource({
  key: 'network-broadband-records',
  apiPaths: [{ path: 'one-network/broadband-connections' }],
  table: 'networkBroadbandRecords',
  title: 'Broadband Connection Records',
  noun: 'Broadband Connection Record',
  area: 'subscriber',
  company: oneNetwork,
  createdBy: true,
  fields: [
    yearField,
    monthField,
    count('totalBroadband', 'Total Broadband'),
    count('fixedBroadband', 'Fixed Broadband'),
    percent('fixedBroadbandPercentage', 'Fixed Broadband %'),
    count('fixedFwa5gRouter', 'Fixed FWA 5G Router'),
    percent('fixedFwa5gRouterPercentage', 'Fixed FWA 5G Router %'),
    count('newConnections', 'New Connections'),
    count('churnConnections', 'Churn Connections'),
  ],
  joins: join,
  list: {
    columns: [...monthColumns, { key: 'totalBroadband', label: 'Total Broadband', format: 'number' }, { key: 'newConnections', label: 'New', format: 'number' }, { key: 'churnConnections', label: 'Churn', format: 'number' }],
    search: ['year'],
    exact: exactMonth,
    sorts: monthSorts,
    defaultSort: byMonth,
  },
  unique: [{ fields: ['year', 'month'], message: oneRecordPerMonth, conflict: true }],
  messages: recordMessages('broadband connection record'),
  formTitles: { create: 'Add Broadband Connection Record', edit: 'Edit Broadband Connection Record' },
  auditLabel: 'One Network Broadband',
  exportName: 'one-network-broadband',
});

const cycles = (['daily', 'weekly', 'monthly'] as const).flatMap((cycle) => {
  const label = cycle.charAt(0).toUpperCase() + cycle.slice(1);
  return [
    count(`${cycle}Subscriptions`, `${label} Subscriptions`),
    percent(`${cycle}SubscriptionsPercentage`, `${label} %`),
    count(`${cycle}New`, `${label} New`),
    count(`${cycle}Churn`, `${label} Churn`),
  ];
});

export const networkSubscriptionPatterns = defineResource({
  key: 'network-subscription-patterns',
  apiPaths: [{ path: 'one-network/mobile-subscription-patterns' }],
  table: 'networkSubscriptionPatterns',
  title: 'Mobile Subscription Patterns',
  noun: 'Mobile Subscription Pattern',
  area: 'subscriber',
  company: oneNetwork,
  createdBy: true,
  fields: [yearField, monthField, count('totalMobileSubscriptions', 'Total Mobile Subscriptions'), ...cycles],
  joins: join,
  list: {
    columns: [...monthColumns, { key: 'totalMobileSubscriptions', label: 'Total Subscriptions', format: 'number' }],
    search: ['year'],
    exact: exactMonth,
    sorts: monthSorts,
    defaultSort: byMonth,
  },
  unique: [{ fields: ['year', 'month'], message: oneRecordPerMonth, conflict: true }],
  messages: recordMessages('mobile subscription pattern'),
  formTitles: { create: 'Add Mobile Subscription Pattern', edit: 'Edit Mobile Subscription Pattern' },
  auditLabel: 'One Network Subscription Patterns',
  exportName: 'one-network-subscription-patterns',
});

export const networkAccessRecords = defineResource({
  key: 'network-access-records',
  apiPaths: [{ path: 'one-network/mobile-access-methods' }],
  table: 'networkAccessRecords',
  title: 'Mobile Access Methods',
  noun: 'Mobile Access Method',
  area: 'subscriber',
  company: oneNetwork,
  createdBy: true,
  fields: [
    yearField,
    monthField,
    count('mifiDevices', 'MiFi Devices'),
    percent('mifiDevicesPercentage', 'MiFi Devices %'),
    count('simCards', 'SIM Cards'),
    percent('simCardsPercentage', 'SIM Cards %'),
    count('eSim', 'eSIM'),
    percent('eSimPercentage', 'eSIM %'),
    count('fwaMobile', 'FWA Mobile'),
    percent('fwaMobilePercentage', 'FWA Mobile %'),
  ],
  joins: join,
  list: {
    columns: [...monthColumns, { key: 'mifiDevices', label: 'MiFi Devices', format: 'number' }, { key: 'simCards', label: 'SIM Cards', format: 'number' }],
    search: ['year'],
    exact: exactMonth,
    sorts: monthSorts,
    defaultSort: byMonth,
  },
  unique: [{ fields: ['year', 'month'], message: oneRecordPerMonth, conflict: true }],
  messages: recordMessages('mobile access method'),
  formTitles: { create: 'Add Mobile Access Method', edit: 'Edit Mobile Access Method' },
  auditLabel: 'One Network Mobile Access',
  exportName: 'one-network-mobile-access',
});
