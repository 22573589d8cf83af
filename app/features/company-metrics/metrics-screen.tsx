// Mobile Metrics and Fintech Metrics: the subscriber-metrics list of one company type, named
// after the first company of that type, with that type's metric names.
import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import type { ResourceLoaderData } from '../../platform/resources/resource-screen.server.ts';
import { fintechMetrics, mobileMetrics } from './subscriber-metrics.ts';
import { METRIC_NAMES } from './subscriber-metrics.ts';
import { ResourceScreen } from '../../platform/resources/resource-screen.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { metaTranslate } from '../../platform/i18n/meta-translate.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';

type MetricCompanyType = keyof typeof METRIC_NAMES;

const GENERIC_TITLES: Record<MetricCompanyType, string> = {
  mobile: msg('Mobile Company Metrics'),
  fintech: msg('Fintech Metrics'),
};

export function metricsTitle(
  companyType: MetricCompanyType,
  companyName: string | null | undefined,
  t: Translate,
): string {
  return companyName ? t('{name} Metrics', { name: companyName }) : t(GENERIC_TITLES[companyType]);
}

export function metricsMeta(companyType: MetricCompanyType): MetaFunction {
  return ({ data, matches }) => [
    {
      title: `${metricsTitle(companyType, (data as ResourceLoaderData | undefined)?.companyName, metaTranslate(matches))} · Group Finance Hub`,
    },
  ];
}

export function MetricsScreen({ companyType }: { companyType: MetricCompanyType }) {
  const data = useLoaderData<ResourceLoaderData>();
  const t = useT();
  return (
    <ResourceScreen
      def={companyType === 'mobile' ? mobileMetrics : fintechMetrics}
      title={metricsTitle(companyType, data.companyName, t)}
      fixed={{ companyType }}
      exportParams={{ companyType }}
      optionsFor={(field) => (field.name === 'metricName' ? METRIC_NAMES[companyType] : undefined)}
    />
  );
}
