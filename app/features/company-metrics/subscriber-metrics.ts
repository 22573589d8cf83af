import { METRIC_COMPANY_TYPES, METRIC_PERIODS } from '../../../db/types.ts';
import type { FieldError } from '../../platform/lib/field-error.ts';
import { defineResource, messagesFor, type ResourceDef } from '../../platform/resources/define.ts';
import {
  companyJoin,
  COMPANY_TYPE_LABELS,
  FINTECH_METRICS,
  METRIC_LABELS,
  MOBILE_METRICS,
  PERIOD_LABELS,
} from '../../platform/resources/shared.ts';
import { companyField } from '../finance/index.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { worded } from '../../platform/i18n/refusal-words.ts';

export const METRIC_NAMES: Record<(typeof METRIC_COMPANY_TYPES)[number], readonly string[]> = {
  mobile: MOBILE_METRICS,
  fintech: FINTECH_METRICS,
};

function metricMatchesType(value: Record<string, unknown>): FieldError[] {
  const names = METRIC_NAMES[value.companyType as keyof typeof METRIC_NAMES];
  return names && !names.includes(String(value.metricName))
    ? [
        worded((message) => ({ field: 'metricName', message }), msg('Metric name must be one of: {names}'), {
          names: names.join(', '),
        }),
      ]
    : [];
}

export const subscriberMetrics = defineResource({
  key: 'subscriber-metrics',
  table: 'subscriberMetrics',
  title: msg('Subscriber Metrics'),
  noun: msg('Metric'),
  area: 'subscriber',
  company: 'column',
  createdBy: true,
  rowCounts: true,
  companyTypeField: 'companyType',
  fields: [
    companyField,
    {
      name: 'companyType',
      label: msg('Company Type'),
      kind: 'enum',
      options: METRIC_COMPANY_TYPES,
      optionLabels: COMPANY_TYPE_LABELS,
    },
    {
      name: 'metricName',
      label: msg('Metric Name'),
      kind: 'enum',
      options: [...MOBILE_METRICS, ...FINTECH_METRICS],
      optionLabels: METRIC_LABELS,
    },
    { name: 'metricValue', label: msg('Metric Value'), kind: 'decimal', required: true },
    {
      name: 'period',
      label: msg('Period'),
      kind: 'enum',
      options: METRIC_PERIODS,
      optionLabels: PERIOD_LABELS,
      defaultValue: 'monthly',
    },
    { name: 'recordDate', label: msg('Record Date'), kind: 'date', required: true },
    { name: 'description', label: msg('Description'), kind: 'textarea', max: 1000 },
  ],
  refine: metricMatchesType,
  joins: [{ ...companyJoin, select: { companyName: 'name' } }],
  list: {
    columns: [
      { key: 'recordDate', label: msg('Record Date'), format: 'date', sort: 'recordDate' },
      { key: 'companyName', label: msg('Company') },
      { key: 'metricName', label: msg('Metric'), format: 'label', sort: 'metricName' },
      { key: 'metricValue', label: msg('Value'), format: 'decimal', sort: 'metricValue' },
      { key: 'period', label: msg('Period'), format: 'label' },
      { key: 'description', label: msg('Description'), truncate: 50 },
    ],
    search: ['c.name', 'metricName', 'period', 'description', 'recordDate'],
    filter: { param: 'metricName', label: msg('Metric'), column: 'metricName' },
    sorts: {
      recordDate: { column: 'recordDate' },
      metricName: { column: 'metricName' },
      metricValue: { column: 'metricValueHundredths' },
    },
    defaultSort: { key: 'recordDate', dir: 'desc' },
  },
  messages: messagesFor('metric'),
  exportName: 'subscriber-metrics',
});

/**
 * The list as the Mobile Metrics and Fintech Metrics screens show it: the same resource with
 * its own texts for each ('Failed to create mobile metric', 'Are you sure you want
 * to delete this fintech metric?').
 */
export const mobileMetrics: ResourceDef = { ...subscriberMetrics, messages: messagesFor('mobile metric') };
export const fintechMetrics: ResourceDef = { ...subscriberMetrics, messages: messagesFor('fintech metric') };
