import { defineResource, messagesFor } from '../../platform/resources/define.ts';
import { companyField } from './companies.ts';
import { departments } from './departments.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const expenseCategories = defineResource({
  key: 'expense-categories',
  table: 'expenseCategories',
  title: msg('Expense Categories'),
  noun: msg('Expense Category'),
  area: 'financial',
  company: 'column',
  fields: [
    companyField,
    { name: 'departmentId', label: msg('Department'), kind: 'reference', reference: () => departments, nullable: true },
    { name: 'name', label: msg('Name'), kind: 'text', required: true, max: 255 },
    { name: 'description', label: msg('Description'), kind: 'textarea', max: 1000 },
  ],
  joins: [
    { table: 'departments', alias: 'd', on: 'departmentId', select: { departmentName: 'name' } },
    { table: 'companies', alias: 'c', on: 'companyId', select: { companyName: 'name' } },
  ],
  list: {
    columns: [
      { key: 'name', label: msg('Name'), sort: 'name' },
      { key: 'description', label: msg('Description'), truncate: 80 },
    ],
    search: ['name', 'description', 'd.name'],
    filter: { param: 'departmentId', label: msg('Department'), column: 'departmentId' },
    sorts: { name: { column: 'name' }, createdAt: { column: 'createdAt' } },
    defaultSort: { key: 'name', dir: 'asc' },
  },
  unique: [{ fields: ['companyId', 'name'], message: msg('This company already has a category with this name') }],
  referencedBy: [
    { table: 'budgets', column: 'categoryId', label: 'budget entries', one: 'budget entry' },
    { table: 'actualExpenses', column: 'categoryId', label: 'expense entries', one: 'expense entry' },
  ],
  // The longest list: grouped by company and department, and only sent with an open form.
  choices: {
    list: 'categories',
    label: 'name',
    orderBy: ['companyId', 'name'],
    groupBy: 'companyId',
    narrowBy: 'departmentId',
    formOnly: true,
  },
  messages: messagesFor('expense category'),
  exportName: 'expense-categories',
});
