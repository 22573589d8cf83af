// Per-company network figures (the /one-network-data screen's three tabs): broadband
// connections, mobile subscriptions and mobile access methods, one row per company, month and
// type. /api/broadband-connections, /api/mobile-subscriptions, /api/mobile-access-methods.
import { ACCESS_METHODS, CONNECTION_TYPES, SUBSCRIPTION_TYPES } from '../../../db/types.ts';
import { defineResource, messagesFor, type Messages } from '../../platform/resources/define.ts';
import {
  ACCESS_METHOD_LABELS,
  aliasOf,
  byMonth,
  churnRate,
  CONNECTION_TYPE_LABELS,
  companyMonthFields,
  count,
  exactMonth,
  monthColumns,
  monthShare,
  monthSorts,
  SUBSCRIPTION_TYPE_LABELS,
} from './metric-fields.ts';
import { companyJoin } from '../../platform/resources/shared.ts';
import { msg } from '../../platform/i18n/messages.ts';

const revenue = { name: 'revenue', label: msg('Revenue'), kind: 'money', required: false } as const;
/** A row's share of its company's month, computed from the counts (never typed). */
const share = { key: 'percentageOfTotal', label: msg('Share of Total'), format: 'percent' } as const;

/** Texts such as 'Failed to create broadband connection'; deletes say 'record'. */
function networkMessages(noun: string): Messages {
  return {
    ...messagesFor(noun),
    deleted: 'Record deleted successfully',
    deleteFailed: 'Failed to delete record',
    confirmDelete: 'Are you sure you want to delete this record?',
  };
}

const oneRowPerMonth = (type: string) => `A record for this company, month and ${type} already exists`;

export const broadbandConnections = defineResource({
  key: 'broadband-connections',
  table: 'broadbandConnections',
  title: msg('Broadband Connections'),
  noun: msg('Broadband Connection'),
  area: 'subscriber',
  company: 'column',
  createdBy: true,
  fields: [
    ...companyMonthFields,
    {
      name: 'connectionType',
      label: msg('Connection Type'),
      kind: 'enum',
      options: CONNECTION_TYPES,
      optionLabels: CONNECTION_TYPE_LABELS,
    },
    count('activeConnections', msg('Active Connections')),
    count('newThisMonth', msg('New This Month')),
    count('churnThisMonth', msg('Churn This Month')),
    revenue,
  ],
  monthTotals: { monthTotal: 'activeConnections' },
  derived: {
    percentageOfTotal: monthShare('activeConnections'),
    churnRate: churnRate('churnThisMonth', 'activeConnections'),
    // The connections' table of other tools reads the active connections as subscriberCount.
    subscriberCount: aliasOf('activeConnections'),
  },
  joins: [{ ...companyJoin, select: { companyName: 'name' } }],
  list: {
    columns: [
      { key: 'connectionType', label: msg('Type'), format: 'label', sort: 'type' },
      ...monthColumns,
      { key: 'activeConnections', label: msg('Connections'), format: 'number', sort: 'count' },
      share,
      { key: 'revenue', label: msg('Revenue'), format: 'money', fallback: '—' },
      { key: 'churnRate', label: msg('Churn Rate'), format: 'percent', fallback: '—' },
    ],
    search: ['connectionType', 'c.name'],
    filter: { param: 'connectionType', label: msg('Type'), column: 'connectionType' },
    exact: exactMonth,
    sorts: { ...monthSorts, type: { column: 'connectionType' }, count: { column: 'activeConnections' } },
    defaultSort: byMonth,
  },
  unique: [
    {
      fields: ['companyId', 'year', 'month', 'connectionType'],
      message: oneRowPerMonth('connection type'),
      conflict: true,
    },
  ],
  messages: networkMessages('broadband connection'),
  exportName: 'broadband-connections',
});

export const mobileSubscriptions = defineResource({
  key: 'mobile-subscriptions',
  table: 'mobileSubscriptions',
  title: msg('Mobile Subscriptions'),
  noun: msg('Mobile Subscription'),
  area: 'subscriber',
  company: 'column',
  createdBy: true,
  fields: [
    ...companyMonthFields,
    {
      name: 'subscriptionType',
      label: msg('Subscription Type'),
      kind: 'enum',
      options: SUBSCRIPTION_TYPES,
      optionLabels: SUBSCRIPTION_TYPE_LABELS,
    },
    count('activeSubscriptions', msg('Active Subscriptions')),
    count('newThisMonth', msg('New This Month')),
    count('churnThisMonth', msg('Churn This Month')),
    revenue,
  ],
  monthTotals: { monthTotal: 'activeSubscriptions' },
  derived: {
    percentageOfTotal: monthShare('activeSubscriptions'),
    churnRate: churnRate('churnThisMonth', 'activeSubscriptions'),
  },
  joins: [{ ...companyJoin, select: { companyName: 'name' } }],
  list: {
    columns: [
      { key: 'subscriptionType', label: msg('Type'), format: 'label', sort: 'type' },
      ...monthColumns,
      { key: 'activeSubscriptions', label: msg('Subscriptions'), format: 'number', sort: 'count' },
      share,
      { key: 'revenue', label: msg('Revenue'), format: 'money', fallback: '—' },
      { key: 'churnRate', label: msg('Churn Rate'), format: 'percent', fallback: '—' },
    ],
    search: ['subscriptionType', 'c.name'],
    filter: { param: 'subscriptionType', label: msg('Type'), column: 'subscriptionType' },
    exact: exactMonth,
    sorts: { ...monthSorts, type: { column: 'subscriptionType' }, count: { column: 'activeSubscriptions' } },
    defaultSort: byMonth,
  },
  unique: [
    {
      fields: ['companyId', 'year', 'month', 'subscriptionType'],
      message: oneRowPerMonth('subscription type'),
      conflict: true,
    },
  ],
  messages: networkMessages('mobile subscription'),
  exportName: 'mobile-subscriptions',
});

export const mobileAccessMethods = defineResource({
  key: 'mobile-access-methods',
  table: 'mobileAccessMethods',
  title: msg('Mobile Access Methods'),
  noun: msg('Mobile Access Method'),
  area: 'subscriber',
  company: 'column',
  createdBy: true,
  fields: [
    ...companyMonthFields,
    {
      name: 'accessMethod',
      label: msg('Access Method'),
      kind: 'enum',
      options: ACCESS_METHODS,
      optionLabels: ACCESS_METHOD_LABELS,
    },
    count('activeDevices', msg('Active Devices')),
    revenue,
  ],
  monthTotals: { monthTotal: 'activeDevices' },
  derived: { percentageOfTotal: monthShare('activeDevices') },
  joins: [{ ...companyJoin, select: { companyName: 'name' } }],
  list: {
    columns: [
      { key: 'accessMethod', label: msg('Type'), format: 'label', sort: 'type' },
      ...monthColumns,
      { key: 'activeDevices', label: msg('Devices'), format: 'number', sort: 'count' },
      share,
      { key: 'revenue', label: msg('Revenue'), format: 'money', fallback: '—' },
      // Devices have no churn: the column says so rather than showing a made-up rate.
      { key: 'churnRate', label: msg('Churn Rate'), format: 'percent', fallback: '—' },
    ],
    search: ['accessMethod', 'c.name'],
    filter: { param: 'accessMethod', label: msg('Type'), column: 'accessMethod' },
    exact: exactMonth,
    sorts: { ...monthSorts, type: { column: 'accessMethod' }, count: { column: 'activeDevices' } },
    defaultSort: byMonth,
  },
  unique: [
    {
      fields: ['companyId', 'year', 'month', 'accessMethod'],
      message: oneRowPerMonth('access method'),
      conflict: true,
    },
  ],
  messages: networkMessages('mobile access method'),
  exportName: 'mobile-access-methods',
});
