// /user-management: the screen; its loader, action and access live in
// app/features/users/user-management-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import {
  UserManagementScreen,
  type UserManagementAction,
  type UserManagementData,
} from '../features/users/user-management-screen.tsx';
import type { action, loader } from '../features/users/user-management-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/users/user-management-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/user-management'))} · Group Finance Hub` },
];

export default function Screen() {
  const data = useLoaderData<typeof loader>();
  const actionData = (useActionData<typeof action>() ?? null) as UserManagementAction | null;
  return <UserManagementScreen data={data as UserManagementData} actionData={actionData} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
