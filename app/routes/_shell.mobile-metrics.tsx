import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { ResourceScreen } from '../components/resource/resource-screen.tsx';
import { resourceAction, resourceLoader } from '../http/resource-screen.server.ts';
import { subscriberMetrics } from '../resources/index.ts';
import { METRIC_NAMES } from '../resources/subscriber-metrics.ts';

const options = { companyType: 'mobile' } as const;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${screenTitle(data?.companyName)} · Group Finance Hub` }];
export const loader = (args: LoaderFunctionArgs) => resourceLoader(subscriberMetrics, args, options);
export const action = (args: ActionFunctionArgs) => resourceAction(subscriberMetrics, args, options);

/** Named after the first mobile company (spec 2 §2), or a generic title. */
function screenTitle(companyName: string | null | undefined): string {
  return companyName ? `${companyName} Metrics` : 'Mobile Company Metrics';
}

export default function Screen() {
  const data = useLoaderData<typeof loader>();
  return (
    <ResourceScreen
      def={subscriberMetrics}
      title={screenTitle(data.companyName)}
      fixed={{ companyType: 'mobile' }}
      exportParams={{ companyType: 'mobile' }}
      optionsFor={(field) => (field.name === 'metricName' ? METRIC_NAMES.mobile : undefined)}
    />
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
