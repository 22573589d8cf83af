// /settings: the screen; its loader, action and access live in
// app/features/settings/settings-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import type { ActionAnswer } from '../platform/screen/action-result.tsx';
import { SettingsScreen } from '../features/settings/settings-screen.tsx';
import type { loader } from '../features/settings/settings-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/settings/settings-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/settings'))} · Group Finance Hub` },
];

export default function SettingsPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionAnswer>();
  return <SettingsScreen data={data} actionData={actionData} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
