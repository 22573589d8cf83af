// A read-only declaration over an existing table, as the coming logs will be declared: the
// budgets as a log (list, search, filter, sort, paging, CSV export; no forms, no writes).
import { defineResource } from '../app/platform/resources/define.ts';
import { categoryJoins, DEPARTMENT_FILTER, PERIOD_LABELS } from '../app/platform/resources/shared.ts';
import { financeReferences } from '../app/features/finance/shared.ts';
import { PERIODS } from '../db/types.ts';

export const budgetLog = defineResource({
  key: 'budget-log',
  table: 'budgets',
  title: 'Budget Log',
  noun: 'Budget Entry',
  area: 'financial',
  readOnly: true,
  company: { copiedFrom: 'categoryId' },
  rowCounts: true,
  fields: [
    ...financeReferences,
    { name: 'amount', label: 'Amount', kind: 'money' },
    { name: 'period', label: 'Period', kind: 'enum', options: PERIODS, optionLabels: PERIOD_LABELS },
    { name: 'startDate', label: 'Start Date', kind: 'date' },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ],
  joins: categoryJoins,
  list: {
    columns: [
      { key: 'startDate', label: 'Start Date', format: 'date', sort: 'startDate' },
      { key: 'categoryName', label: 'Category' },
      { key: 'amount', label: 'Amount', format: 'money', sort: 'amount' },
    ],
    search: ['cat.name', 'd.name', 'description'],
    filter: DEPARTMENT_FILTER,
    sorts: { startDate: { column: 'startDate' }, amount: { column: 'amountCents' } },
    defaultSort: { key: 'startDate', dir: 'desc' },
  },
  exportName: 'budget-log',
});
