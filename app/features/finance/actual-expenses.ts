import { defineResource, messagesFor } from '../../platform/resources/define.ts';
import { categoryJoins, DEPARTMENT_FILTER } from '../../platform/resources/shared.ts';
import { financeReferences } from './shared.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const actualExpenses = defineResource({
  key: 'actual-expenses',
  table: 'actualExpenses',
  title: msg('Actual Expenses'),
  auditLabel: 'Expenses',
  noun: msg('Expense Entry'),
  area: 'financial',
  company: { copiedFrom: 'categoryId' },
  createdBy: true,
  rowCounts: true,
  fields: [
    ...financeReferences,
    { name: 'amount', label: msg('Amount'), kind: 'money', required: true },
    { name: 'expenseDate', label: msg('Expense Date'), kind: 'date', required: true },
    { name: 'description', label: msg('Description'), kind: 'textarea', required: true, max: 1000 },
    { name: 'vendor', label: msg('Vendor'), kind: 'text', max: 255 },
    { name: 'receiptNumber', label: msg('Receipt Number'), kind: 'text', max: 100 },
  ],
  joins: categoryJoins,
  list: {
    columns: [
      { key: 'expenseDate', label: msg('Date'), format: 'date', sort: 'expenseDate' },
      { key: 'companyName', label: msg('Company') },
      { key: 'departmentName', label: msg('Department'), fallback: msg('Unknown') },
      { key: 'categoryName', label: msg('Category'), fallback: msg('Unknown') },
      { key: 'amount', label: msg('Amount'), format: 'money', sort: 'amount' },
      { key: 'description', label: msg('Description'), truncate: 50 },
      { key: 'vendor', label: msg('Vendor'), fallback: msg('N/A') },
      { key: 'receiptNumber', label: msg('Receipt'), fallback: msg('N/A') },
    ],
    search: ['amountCents', 'd.name', 'cat.name', 'c.name', 'description', 'vendor', 'receiptNumber', 'expenseDate'],
    filter: DEPARTMENT_FILTER,
    companyFilter: true,
    sorts: { expenseDate: { column: 'expenseDate' }, amount: { column: 'amountCents' } },
    defaultSort: { key: 'expenseDate', dir: 'desc' },
  },
  messages: messagesFor('expense entry'),
  exportName: 'actual-expenses',
});
