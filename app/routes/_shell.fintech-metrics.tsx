import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { MetricsScreen, metricsMeta } from '../features/company-metrics/metrics-screen.tsx';
import { resourceAction, resourceLoader } from '../platform/resources/resource-screen.server.ts';
import { requestI18n } from '../features/shell/index.server.ts';
import { fintechMetrics } from '../features/company-metrics/subscriber-metrics.ts';
import { resourceScreenAccess } from '../platform/screen/route-access.ts';

const options = { companyType: 'fintech' } as const;

export const meta = metricsMeta('fintech');
export const access = resourceScreenAccess(fintechMetrics);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(fintechMetrics, args, options);
export const action = (args: ActionFunctionArgs) =>
  resourceAction(fintechMetrics, args, { ...options, i18n: requestI18n });

export default function Screen() {
  return <MetricsScreen companyType="fintech" />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
