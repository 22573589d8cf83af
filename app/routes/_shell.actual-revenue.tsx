import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { ResourceScreen } from '../components/resource/resource-screen.tsx';
import { resourceAction, resourceLoader } from '../http/resource-screen.server.ts';
import { actualRevenue } from '../resources/actual-revenue.ts';
import { resourceScreenAccess } from '../http/route-access.ts';

export const meta: MetaFunction = () => [{ title: 'Actual Revenue · Group Finance Hub' }];
export const access = resourceScreenAccess(actualRevenue);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(actualRevenue, args);
export const action = (args: ActionFunctionArgs) => resourceAction(actualRevenue, args);

export default function Screen() {
  return <ResourceScreen def={actualRevenue} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
