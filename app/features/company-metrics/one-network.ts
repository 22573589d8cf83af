// One Network's monthly records (the /one-network-subscription-metrics screen):
// broadband, mobile subscription patterns and mobile access, one record per month, all
// belonging to the company named exactly 'One Network'. /api/one-network/broadband-connections,
// /api/one-network/mobile-subscription-patterns, /api/one-network/mobile-access-methods.
// A record is One Network's per-type rows of that month (network-data.ts) side by side, read
// through a view: its counts are those rows' counts and writing it writes them, so the One
// Network Data screen and this one show the same figures. Totals and shares are computed from
// the counts, never typed; the API answers carry them as before.
import { defineResource, messagesFor, type Messages } from '../../platform/resources/define.ts';
import {
  byMonth,
  count,
  exactMonth,
  monthColumns,
  monthField,
  monthSorts,
  shareOf,
  yearField,
} from './metric-fields.ts';
import { broadbandConnections, mobileAccessMethods, mobileSubscriptions } from './network-data.ts';
import { companyJoin } from '../../platform/resources/shared.ts';
import { msg } from '../../platform/i18n/messages.ts';

/** The company these records belong to (identified by this exact name). */
export const ONE_NETWORK = 'One Network';

/** Texts such as 'Failed to create broadband connection record'; deletes ask about 'this record'. */
function recordMessages(noun: string): Messages {
  return { ...messagesFor(noun), confirmDelete: 'Are you sure you want to delete this record?' };
}

const oneRecordPerMonth = 'A record for this month already exists';
const oneNetwork = { named: ONE_NETWORK } as const;
const join = [{ ...companyJoin, select: { companyName: 'name' } }] as const;

/** Sum of some fields of an API row. */
const sum = (row: Record<string, unknown>, keys: readonly string[]) =>
  keys.reduce((total, key) => total + Number(row[key] ?? 0), 0);
/** Field → its share of the sum of `keys` (`<field>Percentage`). */
const shares = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(
    keys.map((key) => [`${key}Percentage`, (row: Record<string, unknown>) => shareOf(row[key], sum(row, keys))]),
  ) as Record<`${K}Percentage`, (row: Record<string, unknown>) => number>;

const CONNECTIONS = ['fixedBroadband', 'fixedFiber', 'fixedFwa5gRouter'] as const;
const CONNECTION_PARTS = {
  fixedBroadband: 'fixed_broadband',
  fixedFiber: 'fixed_fiber',
  fixedFwa5gRouter: 'fixed_fwa_5g',
} as const;
const CONNECTION_LABELS = {
  fixedBroadband: msg('Fixed Broadband'),
  fixedFiber: msg('Fixed Fiber'),
  fixedFwa5gRouter: msg('Fixed FWA 5G Router'),
} as const;

export const networkBroadbandRecords = defineResource({
  key: 'network-broadband-records',
  apiPaths: [{ path: 'one-network/broadband-connections' }],
  table: 'networkBroadbandRecords',
  title: msg('Broadband Connection Records'),
  noun: msg('Broadband Connection Record'),
  area: 'subscriber',
  company: oneNetwork,
  fields: [
    yearField,
    monthField,
    ...CONNECTIONS.flatMap((key) => [
      count(key, CONNECTION_LABELS[key]),
      count(`${key}New`, `${CONNECTION_LABELS[key]} New`),
      count(`${key}Churn`, `${CONNECTION_LABELS[key]} Churn`),
    ]),
  ],
  derived: {
    totalBroadband: (row) => sum(row, CONNECTIONS),
    ...shares(CONNECTIONS),
    newConnections: (row) =>
      sum(
        row,
        CONNECTIONS.map((key) => `${key}New`),
      ),
    churnConnections: (row) =>
      sum(
        row,
        CONNECTIONS.map((key) => `${key}Churn`),
      ),
  },
  pivot: {
    source: broadbandConnections,
    typeField: 'connectionType',
    parts: Object.fromEntries(
      CONNECTIONS.map((key) => [
        CONNECTION_PARTS[key],
        { [key]: 'activeConnections', [`${key}New`]: 'newThisMonth', [`${key}Churn`]: 'churnThisMonth' },
      ]),
    ),
  },
  joins: join,
  list: {
    columns: [
      ...monthColumns,
      { key: 'totalBroadband', label: msg('Total Broadband'), format: 'number' },
      { key: 'newConnections', label: msg('New'), format: 'number' },
      { key: 'churnConnections', label: msg('Churn'), format: 'number' },
    ],
    search: ['year'],
    exact: exactMonth,
    sorts: monthSorts,
    defaultSort: byMonth,
  },
  unique: [{ fields: ['year', 'month'], message: oneRecordPerMonth, conflict: true }],
  messages: recordMessages('broadband connection record'),
  formTitles: { create: msg('Add Broadband Connection Record'), edit: msg('Edit Broadband Connection Record') },
  auditLabel: 'One Network Broadband',
  exportName: 'one-network-broadband',
});

const CYCLES = ['daily', 'weekly', 'monthly'] as const;
const cycleLabel = (cycle: string) => cycle.charAt(0).toUpperCase() + cycle.slice(1);
const SUBSCRIPTIONS = CYCLES.map((cycle) => `${cycle}Subscriptions` as const);

export const networkSubscriptionPatterns = defineResource({
  key: 'network-subscription-patterns',
  apiPaths: [{ path: 'one-network/mobile-subscription-patterns' }],
  table: 'networkSubscriptionPatterns',
  title: msg('Mobile Subscription Patterns'),
  noun: msg('Mobile Subscription Pattern'),
  area: 'subscriber',
  company: oneNetwork,
  fields: [
    yearField,
    monthField,
    ...CYCLES.flatMap((cycle) => [
      count(`${cycle}Subscriptions`, `${cycleLabel(cycle)} Subscriptions`),
      count(`${cycle}New`, `${cycleLabel(cycle)} New`),
      count(`${cycle}Churn`, `${cycleLabel(cycle)} Churn`),
    ]),
  ],
  derived: { totalMobileSubscriptions: (row) => sum(row, SUBSCRIPTIONS), ...shares(SUBSCRIPTIONS) },
  pivot: {
    source: mobileSubscriptions,
    typeField: 'subscriptionType',
    parts: Object.fromEntries(
      CYCLES.map((cycle) => [
        cycle,
        {
          [`${cycle}Subscriptions`]: 'activeSubscriptions',
          [`${cycle}New`]: 'newThisMonth',
          [`${cycle}Churn`]: 'churnThisMonth',
        },
      ]),
    ),
  },
  joins: join,
  list: {
    columns: [
      ...monthColumns,
      { key: 'totalMobileSubscriptions', label: msg('Total Subscriptions'), format: 'number' },
    ],
    search: ['year'],
    exact: exactMonth,
    sorts: monthSorts,
    defaultSort: byMonth,
  },
  unique: [{ fields: ['year', 'month'], message: oneRecordPerMonth, conflict: true }],
  messages: recordMessages('mobile subscription pattern'),
  formTitles: { create: msg('Add Mobile Subscription Pattern'), edit: msg('Edit Mobile Subscription Pattern') },
  auditLabel: 'One Network Subscription Patterns',
  exportName: 'one-network-subscription-patterns',
});

const DEVICES = ['mifiDevices', 'simCards', 'eSim', 'fwaMobile'] as const;
const DEVICE_PARTS = { mifiDevices: 'mifi', simCards: 'sim', eSim: 'esim', fwaMobile: 'fwa_mobile' } as const;
const DEVICE_LABELS = {
  mifiDevices: msg('MiFi Devices'),
  simCards: msg('SIM Cards'),
  eSim: msg('eSIM'),
  fwaMobile: msg('FWA Mobile'),
} as const;

export const networkAccessRecords = defineResource({
  key: 'network-access-records',
  apiPaths: [{ path: 'one-network/mobile-access-methods' }],
  table: 'networkAccessRecords',
  title: msg('Mobile Access Methods'),
  noun: msg('Mobile Access Method'),
  area: 'subscriber',
  company: oneNetwork,
  fields: [yearField, monthField, ...DEVICES.map((key) => count(key, DEVICE_LABELS[key]))],
  derived: { totalDevices: (row) => sum(row, DEVICES), ...shares(DEVICES) },
  pivot: {
    source: mobileAccessMethods,
    typeField: 'accessMethod',
    parts: Object.fromEntries(DEVICES.map((key) => [DEVICE_PARTS[key], { [key]: 'activeDevices' }])),
  },
  joins: join,
  list: {
    columns: [
      ...monthColumns,
      { key: 'mifiDevices', label: msg('MiFi Devices'), format: 'number' },
      { key: 'simCards', label: msg('SIM Cards'), format: 'number' },
    ],
    search: ['year'],
    exact: exactMonth,
    sorts: monthSorts,
    defaultSort: byMonth,
  },
  unique: [{ fields: ['year', 'month'], message: oneRecordPerMonth, conflict: true }],
  messages: recordMessages('mobile access method'),
  formTitles: { create: msg('Add Mobile Access Method'), edit: msg('Edit Mobile Access Method') },
  auditLabel: 'One Network Mobile Access',
  exportName: 'one-network-mobile-access',
});
