import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { MetricsScreen, metricsMeta } from '../features/company-metrics/metrics-screen.tsx';
import { resourceAction, resourceLoader } from '../platform/resources/resource-screen.server.ts';
import { requestI18n } from '../features/shell/index.server.ts';
import { mobileMetrics } from '../features/company-metrics/subscriber-metrics.ts';
import { resourceScreenAccess } from '../platform/screen/route-access.ts';

const options = { companyType: 'mobile' } as const;

export const meta = metricsMeta('mobile');
export const access = resourceScreenAccess(mobileMetrics);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(mobileMetrics, args, options);
export const action = (args: ActionFunctionArgs) =>
  resourceAction(mobileMetrics, args, { ...options, i18n: requestI18n });

export default function Screen() {
  return <MetricsScreen companyType="mobile" />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
