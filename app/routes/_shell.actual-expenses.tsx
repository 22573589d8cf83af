import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { ResourceScreen } from '../components/resource/resource-screen.tsx';
import { resourceAction, resourceLoader } from '../http/resource-screen.server.ts';
import { actualExpenses } from '../resources/actual-expenses.ts';
import { resourceScreenAccess } from '../http/route-access.ts';

export const meta: MetaFunction = () => [{ title: 'Actual Expenses · Group Finance Hub' }];
export const access = resourceScreenAccess(actualExpenses);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(actualExpenses, args);
export const action = (args: ActionFunctionArgs) => resourceAction(actualExpenses, args);

export default function Screen() {
  return <ResourceScreen def={actualExpenses} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
