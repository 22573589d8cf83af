// Type-level tests of defineResource, checked by `npx tsc` (not run by vitest, not a route):
// every `@ts-expect-error` line must fail to compile, so a wrong table or column name in a
// declaration is found by the type check, not at run time. An unused directive fails tsc too.
import { expectTypeOf } from 'vitest';
import { defineResource, messagesFor, type ApiRow, type ResourceDef, type RowOf } from './define.ts';
import type { getRecord, listRecords } from './resources.server.ts';
import type { ScreenRowOf } from '../screen/screen-rows.ts';
import type { apiIntegrationEndpoints } from '../../features/integrations/resources.ts';
import type { networkAccessRecords, vultSubscriberLevels, vultSubscriberMetrics } from '../../features/resources.ts';

const base = { key: 'check', title: 'Check', noun: 'Check', area: 'reference', exportName: 'check' } as const;
const messages = messagesFor('check');

// A valid declaration over departments, the reference point of the failing ones below.
const departments = defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [{ name: 'name', label: 'Name', kind: 'text' }],
  joins: [],
  list: {
    columns: [{ key: 'name', label: 'Name', sort: 'name' }],
    search: ['name'],
    sorts: { name: { column: 'name' } },
    defaultSort: { key: 'name', dir: 'asc' },
  },
  unique: [{ fields: ['name'], message: 'Taken' }],
  referencedBy: [{ table: 'budgets', column: 'departmentId', label: 'budget entries', one: 'budget entry' }],
  choices: { list: 'departments', label: 'name' },
});

// A valid finance declaration: money in cents, joins, alias columns, creator and row counts.
const budgets = defineResource({
  ...base,
  table: 'budgets',
  company: { copiedFrom: 'categoryId' },
  createdBy: true,
  rowCounts: true,
  messages,
  fields: [
    { name: 'departmentId', label: 'Department', kind: 'reference', reference: () => departments },
    { name: 'amount', label: 'Amount', kind: 'money' },
  ],
  joins: [{ table: 'expenseCategories', alias: 'cat', on: 'categoryId', select: { categoryName: 'name' } }],
  list: {
    columns: [],
    search: ['cat.name', 'description'],
    sorts: { amount: { column: 'amountCents' } },
    defaultSort: { key: 'amount', dir: 'desc' },
  },
});

// A read-only resource needs no messages.
defineResource({
  ...base,
  table: 'auditLogs',
  readOnly: true,
  company: 'none',
  fields: [{ name: 'tableName', label: 'Table', kind: 'text' }],
  joins: [],
  list: {
    columns: [],
    search: ['tableName'],
    sorts: { timestamp: { column: 'timestamp' } },
    defaultSort: { key: 'timestamp', dir: 'desc' },
  },
});

const list = {
  columns: [],
  search: [],
  sorts: { id: { column: 'id' } },
  defaultSort: { key: 'id', dir: 'asc' },
} as const;

// ---- Tables

defineResource({
  ...base,
  // @ts-expect-error: no such table
  table: 'budget',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list,
});

defineResource({
  ...base,
  // @ts-expect-error: a table without an id cannot be a resource
  table: 'rateLimitCounters',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list,
});

// A writable resource needs its messages.
// @ts-expect-error: messages missing
defineResource({ ...base, table: 'departments', company: 'none', fields: [], joins: [], list });

// ---- Fields

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  joins: [],
  list,
  // @ts-expect-error: no column 'nmae'
  fields: [{ name: 'nmae', label: 'Name', kind: 'text' }],
});

defineResource({
  ...base,
  table: 'budgets',
  company: 'none',
  messages,
  joins: [],
  list,
  // @ts-expect-error: a money field is stored in <name>Cents: 'amountCents' has no 'amountCentsCents'
  fields: [{ name: 'amountCents', label: 'Amount', kind: 'money' }],
});

defineResource({
  ...base,
  table: 'budgets',
  company: 'none',
  messages,
  joins: [],
  list,
  // @ts-expect-error: a decimal field is stored in <name>Hundredths: budgets have no amountHundredths
  fields: [{ name: 'amount', label: 'Amount', kind: 'decimal' }],
});

defineResource({
  ...base,
  table: 'subscriberMetrics',
  company: 'none',
  messages,
  joins: [],
  list,
  // @ts-expect-error: the decimal column itself is not a field name for the decimal kind
  fields: [{ name: 'metricValueHundredths', label: 'Value', kind: 'decimal' }],
});

defineResource({
  ...base,
  table: 'budgets',
  company: 'none',
  messages,
  joins: [],
  list,
  // @ts-expect-error: a reference names the referenced declaration, not its table
  fields: [{ name: 'departmentId', label: 'Department', kind: 'reference', reference: 'departments' }],
});

// ---- Lists: sorts, search, filter

defineResource({
  ...base,
  table: 'budgets',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list: {
    columns: [],
    search: [],
    // @ts-expect-error: sorts name real columns: amount is stored as amountCents
    sorts: { amount: { column: 'amount' } },
    defaultSort: { key: 'amount', dir: 'asc' },
  },
});

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list: {
    columns: [],
    search: [],
    sorts: { name: { column: 'name' } },
    // @ts-expect-error: the default sort must be a declared sort key
    defaultSort: { key: 'createdAt', dir: 'asc' },
  },
});

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list: {
    // @ts-expect-error: a column's sort must be a declared sort key
    columns: [{ key: 'name', label: 'Name', sort: 'nmae' }],
    search: [],
    sorts: { name: { column: 'name' } },
    defaultSort: { key: 'name', dir: 'asc' },
  },
});

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list: {
    columns: [],
    sorts: { id: { column: 'id' } },
    defaultSort: { key: 'id', dir: 'asc' },
    // @ts-expect-error: search columns of the main table must exist
    search: ['descriptoin'],
  },
});

defineResource({
  ...base,
  table: 'budgets',
  company: 'none',
  messages,
  fields: [],
  joins: [{ table: 'departments', alias: 'd', on: 'departmentId', select: { departmentName: 'name' } }],
  list: {
    columns: [],
    sorts: { id: { column: 'id' } },
    defaultSort: { key: 'id', dir: 'asc' },
    // @ts-expect-error: 'alias.column' must name a join's alias and a column of its table
    search: ['d.nmae', 'x.name'],
  },
});

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list: {
    columns: [],
    search: [],
    sorts: { id: { column: 'id' } },
    defaultSort: { key: 'id', dir: 'asc' },
    // @ts-expect-error: the filter compares a column of the main table
    filter: { param: 'type', label: 'Type', column: 'type' },
  },
});

// ---- Joins

defineResource({
  ...base,
  table: 'budgets',
  company: 'none',
  messages,
  fields: [],
  list,
  // @ts-expect-error: a join's `on` is a column of the main table
  joins: [{ table: 'departments', alias: 'd', on: 'deptId', select: { departmentName: 'name' } }],
});

defineResource({
  ...base,
  table: 'budgets',
  company: 'none',
  messages,
  fields: [],
  list,
  // @ts-expect-error: a join selects columns of the joined table
  joins: [{ table: 'departments', alias: 'd', on: 'departmentId', select: { departmentName: 'title' } }],
});

// ---- Writes: unique rules, references, company rules, flags, choices

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list,
  // @ts-expect-error: unique rules name fields of the table
  unique: [{ fields: ['title'], message: 'Taken' }],
});

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list,
  // @ts-expect-error: referencedBy names a table and one of its columns
  referencedBy: [{ table: 'budgets', column: 'deptId', label: 'budget entries', one: 'budget entry' }],
});

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list,
  // @ts-expect-error: referencedBy names a real table
  referencedBy: [{ table: 'budget', column: 'departmentId', label: 'budget entries', one: 'budget entry' }],
});

defineResource({
  ...base,
  table: 'departments',
  messages,
  fields: [],
  joins: [],
  list,
  // @ts-expect-error: departments have no companyId column
  company: 'column',
});

defineResource({
  ...base,
  table: 'budgets',
  messages,
  fields: [],
  joins: [],
  list,
  // @ts-expect-error: the company is copied from a field of the table
  company: { copiedFrom: 'category' },
});

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list,
  // @ts-expect-error: departments have no createdBy column
  createdBy: true,
});

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list,
  // @ts-expect-error: row counts are per company: departments have no companyId
  rowCounts: true,
});

defineResource({
  ...base,
  table: 'departments',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list,
  // @ts-expect-error: choices show a column of the table
  choices: { list: 'departments', label: 'title' },
});

// ---- The rows' types (RowOf), from the declared fields and the table's columns

// The fields by name, with their columns' types, and the times.
expectTypeOf<RowOf<typeof departments>>().toEqualTypeOf<{
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}>();

// Money by its name (stored in cents), the joins' names (null without a joined row), the
// copied company and the creator.
expectTypeOf<RowOf<typeof budgets>>().toEqualTypeOf<{
  id: number;
  departmentId: number;
  amount: number;
  categoryName: string | null;
  companyId: number;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
}>();

// Percentages by their names (stored in hundredths), enumerations as their values.
expectTypeOf<RowOf<typeof vultSubscriberMetrics>>().toExtend<{
  id: number;
  companyId: number;
  year: number;
  month: number;
  retentionRate: number;
  companyName: string | null;
}>();
expectTypeOf<RowOf<typeof vultSubscriberLevels>['level']>().toEqualTypeOf<
  'level_0' | 'level_1' | 'level_2' | 'in_progress'
>();
// Values derived for the API, and read-only columns.
expectTypeOf<RowOf<typeof networkAccessRecords>['totalDevices']>().toEqualTypeOf<number | null>();
expectTypeOf<RowOf<typeof networkAccessRecords>['simCardsPercentage']>().toEqualTypeOf<number | null>();
expectTypeOf<RowOf<typeof apiIntegrationEndpoints>['lastSyncAt']>().toEqualTypeOf<string | null>();

// A declaration of any table: the generic row.
expectTypeOf<RowOf<ResourceDef>>().toEqualTypeOf<ApiRow>();
// Every declaration is one of the registry's.
expectTypeOf(budgets).toExtend<ResourceDef>();

// The service gives a declaration's rows their type; a list screen some of their keys.
expectTypeOf<Awaited<ReturnType<typeof listRecords<typeof budgets>>>['rows']>().toEqualTypeOf<
  RowOf<typeof budgets>[]
>();
expectTypeOf<Awaited<ReturnType<typeof getRecord<typeof budgets>>>>().toEqualTypeOf<RowOf<typeof budgets>>();
expectTypeOf<ScreenRowOf<typeof departments>>().toEqualTypeOf<Partial<RowOf<typeof departments>> & { id: number }>();

declare const department: RowOf<typeof departments>;
// @ts-expect-error: not a field of the declaration
void department.description;

defineResource({
  ...base,
  table: 'apiIntegrationEndpoints',
  company: 'none',
  messages,
  fields: [],
  joins: [],
  list,
  // @ts-expect-error: read-only columns are columns of the table
  readOnlyColumns: ['lastSync'],
});
