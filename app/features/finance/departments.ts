import { defineResource, messagesFor } from '../../platform/resources/define.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const departments = defineResource({
  key: 'departments',
  table: 'departments',
  title: msg('Departments'),
  noun: msg('Department'),
  area: 'reference',
  company: 'none',
  fields: [
    { name: 'name', label: msg('Name'), kind: 'text', required: true, max: 255 },
    { name: 'description', label: msg('Description'), kind: 'textarea', max: 1000 },
  ],
  joins: [],
  list: {
    columns: [
      { key: 'name', label: msg('Name'), sort: 'name' },
      { key: 'description', label: msg('Description'), truncate: 100 },
      { key: 'createdAt', label: msg('Created'), format: 'instant', sort: 'createdAt' },
    ],
    search: ['name', 'description'],
    sorts: { name: { column: 'name' }, createdAt: { column: 'createdAt' } },
    defaultSort: { key: 'name', dir: 'asc' },
  },
  unique: [{ fields: ['name'], message: msg('A department with this name already exists') }],
  referencedBy: [
    { table: 'expenseCategories', column: 'departmentId', label: 'expense categories', one: 'expense category' },
    { table: 'budgets', column: 'departmentId', label: 'budget entries', one: 'budget entry' },
    { table: 'actualExpenses', column: 'departmentId', label: 'expense entries', one: 'expense entry' },
  ],
  choices: { list: 'departments', label: 'name' },
  messages: messagesFor('department'),
  exportName: 'departments',
});
