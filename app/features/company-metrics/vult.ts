// Vult's subscriber figures (the /vult-financial-services and
// /vult-subscriber-metrics screens): monthly subscriber metrics, subscriber levels and card
// types, per company. Each answers at two spellings with the same data and services:
// /api/vult-subscriber-metrics and /api/vult/subscriber-metrics (whose GET is the latest row).
import { CARD_TYPES, SUBSCRIBER_LEVELS } from '../../../db/types.ts';
import { defineResource, messagesFor, type Messages } from '../../platform/resources/define.ts';
import {
  byMonth,
  CARD_TYPE_LABELS,
  companyMonthFields,
  count,
  exactMonth,
  LEVEL_LABELS,
  monthColumns,
  monthSorts,
  percent,
} from './metric-fields.ts';
import { companyJoin } from '../../platform/resources/shared.ts';
import { msg } from '../../platform/i18n/messages.ts';

const description = { name: 'description', label: msg('Description'), kind: 'textarea', max: 1000 } as const;
const join = [{ ...companyJoin, select: { companyName: 'name' } }] as const;

/** Vult's own texts where they differ ('Subscriber level added successfully'), the usual ones otherwise. */
function vultMessages(noun: string, created: string): Messages {
  return {
    ...messagesFor(noun),
    created,
    createFailed: `Failed to create vult ${noun}`,
    confirmDelete: 'Are you sure you want to delete this record?',
  };
}

export const vultSubscriberMetrics = defineResource({
  key: 'vult-subscriber-metrics',
  apiPaths: [{ path: 'vult-subscriber-metrics' }, { path: 'vult/subscriber-metrics', latest: true }],
  table: 'vultSubscriberMetrics',
  title: msg('Subscriber Metrics'),
  noun: msg('Subscriber Metrics'),
  area: 'subscriber',
  company: 'column',
  createdBy: true,
  fields: [
    ...companyMonthFields,
    count('totalSubscribers', msg('Total Subscribers')),
    percent('retentionRate', msg('Retention Rate (%)')),
    percent('conversionRate', msg('Conversion Rate (%)')),
    count('cardHolders', msg('Card Holders')),
    percent('cardAdoptionRate', msg('Card Adoption Rate (%)')),
  ],
  joins: join,
  list: {
    columns: [
      ...monthColumns,
      { key: 'totalSubscribers', label: msg('Total Subscribers'), format: 'number', sort: 'subscribers' },
      { key: 'cardHolders', label: msg('Card Holders'), format: 'number' },
      { key: 'retentionRate', label: msg('Retention'), format: 'percent' },
      { key: 'cardAdoptionRate', label: msg('Card Adoption'), format: 'percent' },
    ],
    search: ['year', 'c.name'],
    exact: exactMonth,
    sorts: { ...monthSorts, subscribers: { column: 'totalSubscribers' } },
    defaultSort: byMonth,
  },
  unique: [
    {
      fields: ['companyId', 'year', 'month'],
      message: msg('Subscriber metrics for this company and month already exist'),
      conflict: true,
    },
  ],
  messages: {
    ...vultMessages('subscriber metrics', 'Vult subscriber metrics created successfully'),
    updated: 'Subscriber metrics updated successfully',
  },
  formTitles: { create: msg('Add Subscriber Metrics'), edit: msg('Edit Subscriber Metrics') },
  auditLabel: 'Vult Subscriber Metrics',
  exportName: 'vult-subscriber-metrics',
});

export const vultSubscriberLevels = defineResource({
  key: 'vult-subscriber-levels',
  apiPaths: [{ path: 'vult-subscriber-levels' }, { path: 'vult/subscriber-levels' }],
  table: 'vultSubscriberLevels',
  title: msg('Subscriber Levels'),
  noun: msg('Subscriber Level'),
  area: 'subscriber',
  company: 'column',
  createdBy: true,
  fields: [
    ...companyMonthFields,
    { name: 'level', label: msg('Level'), kind: 'enum', options: SUBSCRIBER_LEVELS, optionLabels: LEVEL_LABELS },
    count('subscriberCount', msg('Subscriber Count')),
    percent('percentageOfTotal', msg('Percentage of Total')),
    description,
  ],
  joins: join,
  list: {
    columns: [
      { key: 'level', label: msg('Level'), format: 'label', sort: 'level' },
      ...monthColumns,
      { key: 'subscriberCount', label: msg('Subscribers'), format: 'number', sort: 'count' },
      { key: 'percentageOfTotal', label: msg('% of Total'), format: 'percent' },
    ],
    search: ['level', 'description', 'c.name'],
    filter: { param: 'level', label: msg('Level'), column: 'level' },
    exact: exactMonth,
    sorts: { ...monthSorts, level: { column: 'level' }, count: { column: 'subscriberCount' } },
    defaultSort: byMonth,
  },
  unique: [
    {
      fields: ['companyId', 'year', 'month', 'level'],
      message: msg('This level already has a record for this company and month'),
      conflict: true,
    },
  ],
  messages: vultMessages('subscriber level', 'Subscriber level added successfully'),
  auditLabel: 'Vult Subscriber Levels',
  exportName: 'vult-subscriber-levels',
});

export const vultCardTypes = defineResource({
  key: 'vult-card-types',
  apiPaths: [{ path: 'vult-card-types' }, { path: 'vult/card-types' }],
  table: 'vultCardTypes',
  title: msg('Card Types'),
  noun: msg('Card Type'),
  area: 'subscriber',
  company: 'column',
  createdBy: true,
  fields: [
    ...companyMonthFields,
    { name: 'cardType', label: msg('Card Type'), kind: 'enum', options: CARD_TYPES, optionLabels: CARD_TYPE_LABELS },
    count('cardCount', msg('Card Count')),
    percent('percentageOfCards', msg('% of Cards')),
    percent('percentageOfUsers', msg('% of Users')),
    description,
  ],
  joins: join,
  list: {
    columns: [
      { key: 'cardType', label: msg('Card Type'), format: 'label', sort: 'cardType' },
      ...monthColumns,
      { key: 'cardCount', label: msg('Cards'), format: 'number', sort: 'count' },
      { key: 'percentageOfCards', label: msg('% of Cards'), format: 'percent' },
      { key: 'percentageOfUsers', label: msg('% of Users'), format: 'percent' },
    ],
    search: ['cardType', 'description', 'c.name'],
    filter: { param: 'cardType', label: msg('Card Type'), column: 'cardType' },
    exact: exactMonth,
    sorts: { ...monthSorts, cardType: { column: 'cardType' }, count: { column: 'cardCount' } },
    defaultSort: byMonth,
  },
  unique: [
    {
      fields: ['companyId', 'year', 'month', 'cardType'],
      message: msg('This card type already has a record for this company and month'),
      conflict: true,
    },
  ],
  messages: vultMessages('card type', 'Card type added successfully'),
  auditLabel: 'Vult Card Types',
  exportName: 'vult-card-types',
});
