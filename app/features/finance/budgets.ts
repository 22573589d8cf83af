import { datesInOrder, defineResource, messagesFor } from '../../platform/resources/define.ts';
import { categoryJoins, DEPARTMENT_FILTER, plannedPeriodFields } from '../../platform/resources/shared.ts';
import { financeReferences } from './shared.ts';

export const budgets = defineResource({
  key: 'budgets',
  table: 'budgets',
  title: 'Budget Planning',
  auditLabel: 'Budgets',
  noun: 'Budget Entry',
  area: 'financial',
  company: { copiedFrom: 'categoryId' },
  createdBy: true,
  rowCounts: true,
  fields: [
    ...financeReferences,
    { name: 'amount', label: 'Amount', kind: 'money', required: true },
    ...plannedPeriodFields,
  ],
  refine: datesInOrder('startDate', 'endDate'),
  joins: categoryJoins,
  list: {
    columns: [
      { key: 'companyName', label: 'Company' },
      { key: 'departmentName', label: 'Department', fallback: 'Unknown' },
      { key: 'categoryName', label: 'Category', fallback: 'Unknown' },
      { key: 'amount', label: 'Amount', format: 'money', sort: 'amount' },
      { key: 'period', label: 'Period', format: 'label' },
      { key: 'startDate', label: 'Start Date', format: 'date', sort: 'startDate' },
      { key: 'endDate', label: 'End Date', format: 'date', sort: 'endDate' },
      { key: 'status', label: 'Status', format: 'label' },
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
