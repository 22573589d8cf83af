// /system-settings: the screen; its loader, action and access live in
// app/features/system/system-settings-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { SystemSettingsScreen } from '../features/system/system-settings-screen.tsx';
import type { loader } from '../features/system/system-settings-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/system/system-settings-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/system-settings'))} · Group Finance Hub` },
];

export default function SystemSettings() {
  const data = useLoaderData<typeof loader>();
  return <SystemSettingsScreen data={data} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
