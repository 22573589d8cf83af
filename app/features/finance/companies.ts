import { COMPANY_TYPES } from '../../../db/types.ts';
import { COMPANY_COLUMNS, defineResource, type FieldDef } from '../../platform/resources/define.ts';
import { COMPANY_TYPE_LABELS } from '../../platform/resources/shared.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const companies = defineResource({
  key: 'companies',
  table: 'companies',
  title: msg('Companies'),
  noun: msg('Company'),
  area: 'reference',
  company: { self: COMPANY_COLUMNS },
  fields: [
    { name: 'name', label: msg('Name'), kind: 'text', required: true, max: 255 },
    { name: 'type', label: msg('Type'), kind: 'enum', options: COMPANY_TYPES, optionLabels: COMPANY_TYPE_LABELS },
    { name: 'description', label: msg('Description'), kind: 'textarea', max: 1000 },
  ],
  joins: [],
  list: {
    columns: [
      { key: 'name', label: msg('Name'), sort: 'name' },
      { key: 'type', label: msg('Type'), format: 'label' },
      { key: 'description', label: msg('Description'), truncate: 100 },
      { key: 'createdAt', label: msg('Created'), format: 'instant', sort: 'createdAt' },
    ],
    search: ['name', 'type', 'description'],
    filter: { param: 'type', label: msg('Type'), column: 'type' },
    sorts: { name: { column: 'name' }, createdAt: { column: 'createdAt' }, id: { column: 'id' } },
    defaultSort: { key: 'id', dir: 'asc' },
  },
  unique: [{ fields: ['name'], message: msg('A company with this name already exists') }],
  referencedBy: [
    { table: 'expenseCategories', column: 'companyId', label: 'expense categories', one: 'expense category' },
    { table: 'budgets', column: 'companyId', label: 'budget entries', one: 'budget entry' },
    { table: 'actualExpenses', column: 'companyId', label: 'expense entries', one: 'expense entry' },
    { table: 'revenueProjections', column: 'companyId', label: 'revenue projections', one: 'revenue projection' },
    { table: 'actualRevenue', column: 'companyId', label: 'revenue entries', one: 'revenue entry' },
    { table: 'subscriberMetrics', column: 'companyId', label: 'subscriber metrics', one: 'subscriber metric' },
    { table: 'users', column: 'companyId', label: 'users', one: 'user' },
    { table: 'apiIntegrationEndpoints', column: 'companyId', label: 'API endpoints', one: 'API endpoint' },
  ],
  choices: { list: 'companies', label: 'name', orderBy: ['id'] },
  messages: {
    created: 'Company created successfully',
    updated: 'Company updated successfully',
    deleted: 'Company deleted successfully',
    createFailed: 'Failed to create company',
    updateFailed: 'Failed to update company',
    deleteFailed: 'Failed to delete company',
    confirmDelete: 'Are you sure you want to delete {name}?',
  },
  formTitles: { create: msg('Add New Company'), edit: msg('Edit Company') },
  exportName: 'companies',
});

/** The company a row belongs to (any table with a `companyId` column). */
export const companyField = {
  name: 'companyId',
  label: msg('Company'),
  kind: 'reference',
  reference: () => companies,
  required: true,
  requiredMessage: msg('Company is required'),
} as const satisfies FieldDef;
