import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { ResourceScreen } from '../components/resource/resource-screen.tsx';
import { resourceAction, resourceLoader } from '../http/resource-screen.server.ts';
import { departments } from '../resources/departments.ts';
import { resourceScreenAccess } from '../http/route-access.ts';

export const meta: MetaFunction = () => [{ title: 'Departments · Group Finance Hub' }];
export const access = resourceScreenAccess(departments);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(departments, args);
export const action = (args: ActionFunctionArgs) => resourceAction(departments, args);

export default function Screen() {
  return <ResourceScreen def={departments} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
