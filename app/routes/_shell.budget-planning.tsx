import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { ResourceScreen } from '../components/resource/resource-screen.tsx';
import { resourceAction, resourceLoader } from '../http/resource-screen.server.ts';
import { budgets } from '../resources/budgets.ts';
import { resourceScreenAccess } from '../http/route-access.ts';

export const meta: MetaFunction = () => [{ title: 'Budget Planning · Group Finance Hub' }];
export const access = resourceScreenAccess(budgets);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(budgets, args);
export const action = (args: ActionFunctionArgs) => resourceAction(budgets, args);

export default function Screen() {
  return <ResourceScreen def={budgets} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
