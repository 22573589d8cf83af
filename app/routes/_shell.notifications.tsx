// /notifications: the screen; its loader, action and access live in
// app/features/notifications/notifications-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import type { ActionAnswer } from '../platform/screen/action-result.tsx';
import { NotificationsScreen } from '../features/notifications/notifications-screen.tsx';
import type { loader } from '../features/notifications/notifications-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/notifications/notifications-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/notifications'))} · Group Finance Hub` },
];

export default function NotificationsPage() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<ActionAnswer>() ?? null;
  return <NotificationsScreen data={data} answer={answer} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
