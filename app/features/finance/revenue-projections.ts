import { datesInOrder, defineResource, messagesFor } from '../../platform/resources/define.ts';
import { companyJoin, plannedPeriodFields, SOURCE_FILTER } from '../../platform/resources/shared.ts';
import { revenueFields } from './shared.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const revenueProjections = defineResource({
  key: 'revenue-projections',
  table: 'revenueProjections',
  title: msg('Revenue Projections'),
  noun: msg('Revenue Projection'),
  area: 'financial',
  company: 'column',
  createdBy: true,
  rowCounts: true,
  fields: [...revenueFields, ...plannedPeriodFields],
  refine: datesInOrder('startDate', 'endDate'),
  joins: [companyJoin],
  list: {
    columns: [
      { key: 'companyName', label: msg('Company') },
      { key: 'source', label: msg('Source'), sort: 'source' },
      { key: 'amount', label: msg('Amount'), format: 'money', sort: 'amount' },
      { key: 'period', label: msg('Period'), format: 'label' },
      { key: 'startDate', label: msg('Start Date'), format: 'date', sort: 'startDate' },
      { key: 'endDate', label: msg('End Date'), format: 'date', sort: 'endDate' },
      { key: 'status', label: msg('Status'), format: 'label' },
    ],
    search: ['amountCents', 'c.name', 'source', 'period', 'status', 'description', 'startDate', 'endDate'],
    filter: SOURCE_FILTER,
    companyFilter: true,
    sorts: {
      startDate: { column: 'startDate' },
      endDate: { column: 'endDate' },
      amount: { column: 'amountCents' },
      source: { column: 'source' },
    },
    defaultSort: { key: 'startDate', dir: 'desc' },
  },
  messages: messagesFor('revenue projection'),
  exportName: 'revenue-projections',
});
