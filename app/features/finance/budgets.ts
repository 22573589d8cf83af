import { datesInOrder, defineResource, messagesFor } from '../../platform/resources/define.ts';
import { categoryJoins, DEPARTMENT_FILTER, plannedPeriodFields } from '../../platform/resources/shared.ts';
import { financeReferences } from './shared.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const budgets = defineResource({
  key: 'budgets',
  table: 'budgets',
  title: msg('Budget Planning'),
  auditLabel: 'Budgets',
  noun: msg('Budget Entry'),
  area: 'financial',
  company: { copiedFrom: 'categoryId' },
  createdBy: true,
  rowCounts: true,
  fields: [
    ...financeReferences,
    { name: 'amount', label: msg('Amount'), kind: 'money', required: true },
    ...plannedPeriodFields,
  ],
  refine: datesInOrder('startDate', 'endDate'),
  joins: categoryJoins,
  list: {
    columns: [
      { key: 'companyName', label: msg('Company') },
      { key: 'departmentName', label: msg('Department'), fallback: msg('Unknown') },
      { key: 'categoryName', label: msg('Category'), fallback: msg('Unknown') },
      { key: 'amount', label: msg('Amount'), format: 'money', sort: 'amount' },
      { key: 'period', label: msg('Period'), format: 'label' },
      { key: 'startDate', label: msg('Start Date'), format: 'date', sort: 'startDate' },
      { key: 'endDate', label: msg('End Date'), format: 'date', sort: 'endDate' },
      { key: 'status', label: msg('Status'), format: 'label' },
    ],
    search: ['amountCents', 'd.name', 'cat.name', 'c.name', 'period', 'status', 'description', 'startDate', 'endDate'],
    filter: DEPARTMENT_FILTER,
    companyFilter: true,
    sorts: { startDate: { column: 'startDate' }, endDate: { column: 'endDate' }, amount: { column: 'amountCents' } },
    defaultSort: { key: 'startDate', dir: 'desc' },
  },
  messages: messagesFor('budget entry'),
  exportName: 'budgets',
});
