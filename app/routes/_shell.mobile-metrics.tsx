import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { MetricsScreen, metricsMeta } from '../components/resource/metrics-screen.tsx';
import { resourceAction, resourceLoader } from '../http/resource-screen.server.ts';
import { mobileMetrics } from '../resources/subscriber-metrics.ts';
import { resourceScreenAccess } from '../http/route-access.ts';

const options = { companyType: 'mobile' } as const;

export const meta = metricsMeta('mobile');
export const access = resourceScreenAccess(mobileMetrics);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(mobileMetrics, args, options);
export const action = (args: ActionFunctionArgs) => resourceAction(mobileMetrics, args, options);

export default function Screen() {
  return <MetricsScreen companyType="mobile" />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
