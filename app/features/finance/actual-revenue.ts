import { defineResource, messagesFor } from '../../platform/resources/define.ts';
import { companyJoin, SOURCE_FILTER } from '../../platform/resources/shared.ts';
import { revenueFields } from './shared.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const actualRevenue = defineResource({
  key: 'actual-revenues',
  table: 'actualRevenue',
  title: msg('Actual Revenue'),
  noun: msg('Revenue Entry'),
  area: 'financial',
  company: 'column',
  createdBy: true,
  rowCounts: true,
  fields: [
    ...revenueFields,
    { name: 'revenueDate', label: msg('Revenue Date'), kind: 'date', required: true },
    { name: 'description', label: msg('Description'), kind: 'textarea', max: 1000 },
    { name: 'customerReference', label: msg('Customer Reference'), kind: 'text', max: 255 },
  ],
  joins: [companyJoin],
  list: {
    columns: [
      { key: 'revenueDate', label: msg('Date'), format: 'date', sort: 'revenueDate' },
      { key: 'companyName', label: msg('Company') },
      { key: 'source', label: msg('Source'), sort: 'source' },
      { key: 'amount', label: msg('Amount'), format: 'money', sort: 'amount' },
      { key: 'description', label: msg('Description'), truncate: 50 },
      { key: 'customerReference', label: msg('Customer Reference'), fallback: msg('N/A') },
    ],
    search: ['amountCents', 'c.name', 'source', 'description', 'customerReference', 'revenueDate'],
    filter: SOURCE_FILTER,
    companyFilter: true,
    sorts: { revenueDate: { column: 'revenueDate' }, amount: { column: 'amountCents' }, source: { column: 'source' } },
    defaultSort: { key: 'revenueDate', dir: 'desc' },
  },
  messages: messagesFor('revenue entry'),
  exportName: 'actual-revenue',
});
