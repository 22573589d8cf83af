import { defineResource, messagesFor } from '../../platform/resources/define.ts';
import { companyJoin, SOURCE_FILTER } from '../../platform/resources/shared.ts';
import { revenueFields } from './shared.ts';

export const actualRevenue = defineResource({
  key: 'actual-revenues',
  table: 'actualRevenue',
  title: 'Actual Revenue',
  noun: 'Revenue Entry',
  area: 'financial',
  company: 'column',
  createdBy: true,
  rowCounts: true,
  fields: [
    ...revenueFields,
    { name: 'revenueDate', label: 'Revenue Date', kind: 'date', required: true },
    { name: 'description', label: 'Description', kind: 'textarea', max: 1000 },
    { name: 'customerReference', label: 'Customer Reference', kind: 'text', max: 255 },
  ],
  joins: [companyJoin],
  list: {
    columns: [
      { key: 'revenueDate', label: 'Date', format: 'date', sort: 'revenueDate' },
      { key: 'companyName', label: 'Company' },
      { key: 'source', label: 'Source', sort: 'source' },
      { key: 'amount', label: 'Amount', format: 'money', sort: 'amount' },
      { key: 'description', label: 'Description', truncate: 50 },
      { key: 'customerReference', label: 'Customer Reference', fallback: 'N/A' },
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
