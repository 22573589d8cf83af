// API integration sources and endpoints: declared resources, so their /api
// calls, forms, validation, audit entries and versions come from the generic layer. Both are
// group-wide configuration (a user limited to one company reads them but changes nothing).
// Credentials and sync logs are not resources: a credential is never read back, a log is
// written by the sync engine only.
import { AUTH_TYPES, HTTP_METHODS, SYNC_DIRECTIONS } from '../../../db/types.ts';
import type { FieldError } from '../../platform/lib/field-error.ts';
import { defineResource, messagesFor, type Zod } from '../../platform/resources/define.ts';
import { companies } from '../finance/index.ts';
import { mappingErrors } from './integration-mapping.ts';
import { msg } from '../../platform/i18n/messages.ts';

/** Tables an endpoint can fill or send (snake_case, as an endpoint's targetTable names them). */
export const SYNC_TARGET_TABLES = [
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
] as const;

export const SYNC_FREQUENCIES = ['manual', 'hourly', 'daily'] as const;
/** Five cron fields (minute hour day month weekday) of digits, *, /, - and commas. */
export const CRON_PATTERN = /^\s*([\d*/,-]+\s+){4}[\d*/,-]+\s*$/;

const AUTH_LABELS = {
  none: msg('None'),
  bearer: msg('Bearer token'),
  api_key: msg('API key header'),
  basic: msg('Basic (user and password)'),
  oauth2: msg('OAuth 2 access token'),
};
const ACTIVE_LABELS = { true: msg('Active'), false: msg('Inactive') };

export const apiIntegrationSources = defineResource({
  key: 'api-integration-sources',
  table: 'apiIntegrationSources',
  title: msg('API Sources'),
  auditLabel: 'API Integration Sources',
  noun: msg('API Source'),
  area: 'integrations',
  company: 'none',
  createdBy: true,
  fields: [
    { name: 'name', label: msg('Name'), kind: 'text', required: true, max: 255 },
    { name: 'description', label: msg('Description'), kind: 'textarea', max: 2000 },
    {
      name: 'baseUrl',
      label: msg('Base URL'),
      kind: 'text',
      required: true,
      max: 500,
      format: 'url',
      requiredMessage: msg('Must be a valid URL'),
      placeholder: 'https://api.example.com',
    },
    {
      name: 'authType',
      label: msg('Auth Type'),
      kind: 'enum',
      options: AUTH_TYPES,
      optionLabels: AUTH_LABELS,
      defaultValue: 'none',
    },
    { name: 'isActive', label: msg('Active'), kind: 'boolean', optionLabels: ACTIVE_LABELS, defaultValue: 'true' },
  ],
  joins: [],
  list: {
    columns: [
      { key: 'name', label: msg('Name'), sort: 'name' },
      { key: 'baseUrl', label: msg('Base URL'), truncate: 60 },
      { key: 'authType', label: msg('Auth Type'), format: 'label' },
      { key: 'isActive', label: msg('Status'), format: 'label' },
      { key: 'createdAt', label: msg('Created'), format: 'instant', sort: 'createdAt' },
    ],
    search: ['name', 'description', 'baseUrl'],
    sorts: { name: { column: 'name' }, createdAt: { column: 'createdAt' } },
    defaultSort: { key: 'name', dir: 'asc' },
  },
  unique: [{ fields: ['name'], message: msg('An API source with this name already exists') }],
  referencedBy: [{ table: 'apiIntegrationEndpoints', column: 'sourceId', label: 'endpoints', one: 'endpoint' }],
  choices: { list: 'apiSources', label: 'name' },
  messages: {
    ...messagesFor('API source'),
    createFailed: 'Error creating API source',
    updateFailed: 'Error updating API source',
    deleteFailed: 'Error deleting API source',
  },
  exportName: 'api-integration-sources',
  // Credentials are bound to the origin they were entered for: a source moved elsewhere keeps
  // none active (server code, imported when it runs).
  afterUpdate: async (ctx, id, value) => {
    const { deactivateCredentialsOffOrigin } = await import('./integration-credentials.server.ts');
    await deactivateCredentialsOffOrigin(ctx, id, String(value.baseUrl));
  },
});

/**
 * Why an endpoint's path is refused, or null: it is a path on the source's base URL (its
 * credentials are bound to that origin), never an absolute URL (`https://…`, `mailto:…`) nor a
 * protocol-relative address (`//host/…`, and the backslash spellings browsers read the same way).
 */
export function endpointPathError(text: string): string | null {
  // As a URL parser reads it: no leading or trailing controls and spaces, no tabs or newlines.
  const path = text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (/^[a-z][a-z\d+.-]*:/i.test(path) || /^[\\/]{2}/.test(path))
    return msg("Endpoint must be a path on the source's base URL (such as /v1/expenses), not an address of its own");
  return null;
}

function endpointErrors(value: Record<string, unknown>, zod: Zod): FieldError[] {
  const errors: FieldError[] = [];
  const pathError = typeof value.endpoint === 'string' && value.endpoint ? endpointPathError(value.endpoint) : null;
  if (pathError) errors.push({ field: 'endpoint', message: pathError });
  const frequency = String(value.syncFrequency ?? 'manual');
  if (!(SYNC_FREQUENCIES as readonly string[]).includes(frequency) && !CRON_PATTERN.test(frequency)) {
    errors.push({
      field: 'syncFrequency',
      message: msg('Sync frequency must be manual, hourly, daily or a cron expression (minute hour day month weekday)'),
    });
  }
  if (typeof value.mappingConfig === 'string' && value.mappingConfig) {
    errors.push(...mappingErrors(zod, value.mappingConfig, value.direction === 'outbound' ? 'outbound' : 'inbound'));
  }
  return errors;
}

export const apiIntegrationEndpoints = defineResource({
  key: 'api-integration-endpoints',
  table: 'apiIntegrationEndpoints',
  title: msg('Endpoints'),
  auditLabel: 'API Integration Endpoints',
  noun: msg('API Endpoint'),
  area: 'integrations',
  company: 'none',
  createdBy: true,
  fields: [
    { name: 'sourceId', label: msg('Source'), kind: 'reference', reference: () => apiIntegrationSources },
    { name: 'name', label: msg('Name'), kind: 'text', required: true, max: 255 },
    { name: 'endpoint', label: msg('Endpoint'), kind: 'text', required: true, max: 500, placeholder: '/v1/expenses' },
    { name: 'method', label: msg('Method'), kind: 'enum', options: HTTP_METHODS, defaultValue: 'GET' },
    {
      name: 'direction',
      label: msg('Direction'),
      kind: 'enum',
      options: SYNC_DIRECTIONS,
      optionLabels: { inbound: 'Inbound (pull data)', outbound: 'Outbound (push data)' },
      defaultValue: 'inbound',
    },
    {
      name: 'targetTable',
      label: msg('Target Table'),
      kind: 'enum',
      options: SYNC_TARGET_TABLES,
      requiredMessage: msg('Target table is required'),
    },
    // Names the record's lookups resolve within (a category name exists in every company), and the company of rows it files.
    {
      name: 'companyId',
      label: msg('Company'),
      kind: 'reference',
      reference: () => companies,
      nullable: true,
      placeholder: msg('Named by each record'),
    },
    {
      name: 'syncFrequency',
      label: msg('Sync Frequency'),
      kind: 'text',
      max: 50,
      suggestions: SYNC_FREQUENCIES,
      defaultValue: 'manual',
    },
    { name: 'mappingConfig', label: msg('Mapping (JSON)'), kind: 'textarea', max: 20_000, format: 'json' },
    { name: 'webhookConfig', label: msg('Webhook (JSON)'), kind: 'textarea', max: 20_000, format: 'json' },
    { name: 'description', label: msg('Description'), kind: 'textarea', max: 2000 },
    { name: 'isActive', label: msg('Active'), kind: 'boolean', optionLabels: ACTIVE_LABELS, defaultValue: 'true' },
  ],
  joins: [
    { table: 'apiIntegrationSources', alias: 's', on: 'sourceId', select: { sourceName: 'name' } },
    { table: 'companies', alias: 'c', on: 'companyId', select: { companyName: 'name' } },
  ],
  list: {
    columns: [
      { key: 'name', label: msg('Name'), sort: 'name' },
      { key: 'sourceName', label: msg('Source') },
      { key: 'method', label: msg('Method') },
      { key: 'endpoint', label: msg('Endpoint'), truncate: 50 },
      { key: 'direction', label: msg('Direction'), format: 'label', secondary: true },
      { key: 'targetTable', label: msg('Target Table'), secondary: true },
      { key: 'companyName', label: msg('Company'), fallback: msg('Named by each record') },
      { key: 'syncFrequency', label: msg('Frequency'), secondary: true },
      { key: 'isActive', label: msg('Status'), format: 'label' },
      { key: 'lastSyncAt', label: msg('Last Sync'), format: 'instant', fallback: msg('Never') },
    ],
    search: ['name', 'endpoint', 'targetTable', 's.name'],
    filter: { param: 'sourceId', label: msg('Source'), column: 'sourceId' },
    sorts: { name: { column: 'name' }, createdAt: { column: 'createdAt' } },
    defaultSort: { key: 'name', dir: 'asc' },
  },
  readOnlyColumns: ['lastSyncAt'],
  refine: endpointErrors,
  messages: { ...messagesFor('API endpoint'), createFailed: 'Error creating API endpoint' },
  exportName: 'api-integration-endpoints',
});
