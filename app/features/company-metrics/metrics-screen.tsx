// Mobile Metrics and Fintech Metrics: the subscriber-metrics list of one company type, named
// after the first company of that type, with that type's metric names.
import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import type { ResourceLoaderData } from '../../platform/resources/resource-screen.server.ts';
import { fintechMetrics, mobileMetrics } from './subscriber-metrics.ts';
import { METRIC_NAMES } from './subscriber-metrics.ts';
import { ResourceScreen } from '../../platform/resources/resource-screen.tsx';

type MetricCompanyType = keyof typeof METRIC_NAMES;

const GENERIC_TITLES: Record<MetricCompanyType, string> = {
  mobile: 'Mobile Company Metrics',
  fintech: 'Fintech Metrics',
};

export function metricsTitle(companyType: MetricCompanyType, companyName: string | null | undefined): string {
  return companyName ? `${companyName} Metrics` : GENERIC_TITLES[companyType];
}

export function metricsMeta(companyType: MetricCompanyType): MetaFunction {
  return ({ data }) => [
    {
      title: `${metricsTitle(companyType, (data as ResourceLoaderData | undefined)?.companyName)} · Group Finance Hub`,
    },
  ];
}

export function MetricsScreen({ companyType }: { companyType: MetricCompanyType }) {
  const data = useLoaderData<ResourceLoaderData>();
  return (
    <ResourceScreen
      def={companyType === 'mobile' ? mobileMetrics : fintechMetrics}
      title={metricsTitle(companyType, data.companyName)}
      fixed={{ companyType }}
      exportParams={{ companyType }}
      optionsFor={(field) => (field.name === 'metricName' ? METRIC_NAMES[companyType] : undefined)}
    />
  );
}
