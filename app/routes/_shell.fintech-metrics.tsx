import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { MetricsScreen, metricsMeta } from '../components/resource/metrics-screen.tsx';
import { resourceAction, resourceLoader } from '../http/resource-screen.server.ts';
import { fintechMetrics } from '../resources/subscriber-metrics.ts';
import { resourceScreenAccess } from '../http/route-access.ts';

const options = { companyType: 'fintech' } as const;

export const meta = metricsMeta('fintech');
export const access = resourceScreenAccess(fintechMetrics);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(fintechMetrics, args, options);
export const action = (args: ActionFunctionArgs) => resourceAction(fintechMetrics, args, options);

export default function Screen() {
  return <MetricsScreen companyType="fintech" />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
