import { defineResource, messagesFor } from '../../platform/resources/define.ts';
import { categoryJoins, DEPARTMENT_FILTER } from '../../platform/resources/shared.ts';
import { financeReferences } from './shared.ts';

export const actualExpenses = defineResource({
  key: 'actual-expenses',
  table: 'actualExpenses',
  title: 'Actual Expenses',
  auditLabel: 'Expenses',
  noun: 'Expense Entry',
  area: 'financial',
  company: { copiedFrom: 'categoryId' },
  createdBy: true,
  rowCounts: true,
  fields: [
    ...financeReferences,
    { name: 'amount', label: 'Amount', kind: 'money', required: true },
    { name: 'expenseDate', label: 'Expense Date', kind: 'date', required: true },
    { name: 'description', label: 'Description', kind: 'textarea', required: true, max: 1000 },
    { name: 'vendor', label: 'Vendor', kind: 'text', max: 255 },
    { name: 'receiptNumber', label: 'Receipt Number', kind: 'text', max: 100 },
  ],
  joins: categoryJoins,
  list: {
    columns: [
      { key: 'expenseDate', label: 'Date', format: 'date', sort: 'expenseDate' },
      { key: 'companyName', label: 'Company' },
      { key: 'departmentName', label: 'Department', fallback: 'Unknown' },
      { key: 'categoryName', label: 'Category', fallback: 'Unknown' },
      { key: 'amount', label: 'Amount', format: 'money', sort: 'amount' },
      { key: 'description', label: 'Description', truncate: 50 },
      { key: 'vendor', label: 'Vendor', fallback: 'N/A' },
      { key: 'receiptNumber', label: 'Receipt', fallback: 'N/A' },
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
