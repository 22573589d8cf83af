import { PERIODS, STATUSES } from '../../db/types.ts';
import { datesInOrder, messagesFor, type ResourceDef } from './define.ts';
import { companyField, companyJoin, PERIOD_LABELS, REVENUE_SOURCES, SOURCE_FILTER, STATUS_LABELS } from './shared.ts';

export const revenueProjections: ResourceDef = {
  key: 'revenue-projections',
  table: 'revenueProjections',
  title: 'Revenue Projections',
  noun: 'Revenue Projection',
  area: 'financial',
  company: 'column',
  fields: [
    companyField,
    { name: 'source', label: 'Source', kind: 'text', required: true, max: 255, suggestions: REVENUE_SOURCES },
    { name: 'amount', label: 'Amount', kind: 'money', required: true },
    { name: 'period', label: 'Period', kind: 'enum', options: PERIODS, optionLabels: PERIOD_LABELS, defaultValue: 'monthly' },
    { name: 'startDate', label: 'Start Date', kind: 'date', required: true },
    { name: 'endDate', label: 'End Date', kind: 'date', required: true },
    { name: 'status', label: 'Status', kind: 'enum', options: STATUSES, optionLabels: STATUS_LABELS, defaultValue: 'active', required: false },
    { name: 'description', label: 'Description', kind: 'textarea', max: 1000 },
  ],
  refine: datesInOrder('startDate', 'endDate'),
  joins: [companyJoin],
  list: {
    columns: [
      { key: 'companyName', label: 'Company' },
      { key: 'source', label: 'Source', sort: 'source' },
      { key: 'amount', label: 'Amount', format: 'money', sort: 'amount' },
      { key: 'period', label: 'Period', format: 'label' },
      { key: 'startDate', label: 'Start Date', format: 'date', sort: 'startDate' },
      { key: 'endDate', label: 'End Date', format: 'date', sort: 'endDate' },
      { key: 'status', label: 'Status', format: 'label' },
    ],
    search: ['c.name', 'source', 'period', 'status', 'description', 'startDate', 'endDate'],
    filter: SOURCE_FILTER,
    sorts: { startDate: { column: 'startDate' }, endDate: { column: 'endDate' }, amount: { column: 'amountCents' }, source: { column: 'source' } },
    defaultSort: { key: 'startDate', dir: 'desc' },
  },
  messages: messagesFor('revenue projection'),
  exportName: 'revenue-projections',
};
