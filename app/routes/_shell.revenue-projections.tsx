import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { ResourceScreen } from '../components/resource/resource-screen.tsx';
import { resourceAction, resourceLoader } from '../http/resource-screen.server.ts';
import { revenueProjections } from '../resources/revenue-projections.ts';
import { resourceScreenAccess } from '../http/route-access.ts';

export const meta: MetaFunction = () => [{ title: 'Revenue Projections · Group Finance Hub' }];
export const access = resourceScreenAccess(revenueProjections);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(revenueProjections, args);
export const action = (args: ActionFunctionArgs) => resourceAction(revenueProjections, args);

export default function Screen() {
  return <ResourceScreen def={revenueProjections} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
