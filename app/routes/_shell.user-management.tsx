// /user-management (spec 3 §2.1): users, statistics, activity analytics and activity history.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { UserManagementScreen } from '../components/users/user-management-screen.tsx';
import { userManagementAction, userManagementLoader } from '../http/user-management-screen.server.ts';

export const meta: MetaFunction = () => [{ title: 'User Management · Group Finance Hub' }];
export const loader = (args: LoaderFunctionArgs) => userManagementLoader(args);
export const action = (args: ActionFunctionArgs) => userManagementAction(args);

export default function Screen() {
  return <UserManagementScreen />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
