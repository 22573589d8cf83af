// The registry is the one list of resources: what other lists derive from it (export tables,
// the audit trail's table filter), and what the declarations must agree on with the database
// (row-count triggers) and with each other (every reference is to a declared resource that offers
// choices; a Company dropdown finds the companies' declaration).
import { describe, expect, it } from 'vitest';
import { COUNTED_TABLES } from '../../../db/migrations/0003_row_counts.ts';
import { snakeCase } from '../lib/names.ts';
import { exportTableNames, resolveExportTable } from '../../features/backups/exports.server.ts';
import { AUDITED_TABLES, companies, findResource, RESOURCE_LIST } from '../../features/resources.ts';
import { companiesOf, referencedResource } from './define.ts';

describe('resource registry', () => {
  it('keys and tables are unique; findResource knows only the keys', () => {
    expect(new Set(RESOURCE_LIST.map((def) => def.key)).size).toBe(RESOURCE_LIST.length);
    expect(new Set(RESOURCE_LIST.map((def) => def.table)).size).toBe(RESOURCE_LIST.length);
    for (const def of RESOURCE_LIST) expect(findResource(def.key)).toBe(def);
    for (const key of [undefined, '', 'nope', 'constructor', '__proto__', 'actualRevenue'])
      expect(findResource(key)).toBeUndefined();
  });

  it('every reference points to a declared resource that offers choices', () => {
    for (const def of RESOURCE_LIST) {
      for (const field of def.fields.filter((f) => f.kind === 'reference')) {
        expect(RESOURCE_LIST, `${def.key}.${field.name}`).toContain(referencedResource(field));
        expect(referencedResource(field).choices, `${def.key}.${field.name}`).toBeDefined();
      }
    }
  });

  it("a Company dropdown offers the companies' declaration", () => {
    const withDropdown = RESOURCE_LIST.filter((def) => def.list.companyFilter);
    expect(withDropdown.length).toBeGreaterThan(0);
    for (const def of withDropdown) expect(companiesOf(def), def.key).toBe(companies);
  });

  it('the resources declaring row counts are the tables whose triggers keep them (migration 0003)', () => {
    expect(RESOURCE_LIST.filter((def) => def.rowCounts).map((def) => snakeCase(def.table))).toEqual(COUNTED_TABLES);
  });

  it('whole-table exports: users, then every resource in the documented order and spellings', () => {
    expect(exportTableNames()).toEqual([
      'users',
      'companies',
      'departments',
      'expense_categories',
      'budgets',
      'actual_expenses',
      'revenue_projections',
      'actual_revenue',
      'subscriber_metrics',
      'broadband_connections',
      'mobile_subscriptions',
      'mobile_access_methods',
      'network_broadband_records',
      'network_subscription_patterns',
      'network_access_records',
      'vult_subscriber_metrics',
      'vult_subscriber_levels',
      'vult_card_types',
      'api_integration_sources',
      'api_integration_endpoints',
    ]);
    for (const name of ['actualExpenses', 'actual_expenses', 'actual-expenses', ' actual_expenses '])
      expect(resolveExportTable(name)).toBe('actualExpenses');
    for (const name of ['actual-revenues', 'actual_revenue', 'actualRevenue'])
      expect(resolveExportTable(name)).toBe('actualRevenue');
    expect(resolveExportTable('users')).toBe('users');
    for (const name of ['passwords', 'audit_logs', 'rowCounts', '']) expect(resolveExportTable(name)).toBeUndefined();
  });

  it("the audit trail's table filter: users and every resource, with the documented labels", () => {
    expect(AUDITED_TABLES).toEqual([
      { value: 'users', label: 'Users' },
      { value: 'companies', label: 'Companies' },
      { value: 'departments', label: 'Departments' },
      { value: 'expense_categories', label: 'Expense Categories' },
      { value: 'budgets', label: 'Budgets' },
      { value: 'actual_expenses', label: 'Expenses' },
      { value: 'revenue_projections', label: 'Revenue Projections' },
      { value: 'actual_revenue', label: 'Actual Revenue' },
      { value: 'subscriber_metrics', label: 'Subscriber Metrics' },
      { value: 'broadband_connections', label: 'Broadband Connections' },
      { value: 'mobile_subscriptions', label: 'Mobile Subscriptions' },
      { value: 'mobile_access_methods', label: 'Mobile Access Methods' },
      { value: 'network_broadband_records', label: 'One Network Broadband' },
      { value: 'network_subscription_patterns', label: 'One Network Subscription Patterns' },
      { value: 'network_access_records', label: 'One Network Mobile Access' },
      { value: 'vult_subscriber_metrics', label: 'Vult Subscriber Metrics' },
      { value: 'vult_subscriber_levels', label: 'Vult Subscriber Levels' },
      { value: 'vult_card_types', label: 'Vult Card Types' },
      { value: 'api_integration_sources', label: 'API Integration Sources' },
      { value: 'api_integration_endpoints', label: 'API Integration Endpoints' },
    ]);
  });
});
