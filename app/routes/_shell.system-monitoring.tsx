// /system-monitoring: the screen; its loader, action and access live in
// app/features/system/system-monitoring-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { SystemMonitoringScreen } from '../features/system/system-monitoring-screen.tsx';
import type { ActionAnswer } from '../platform/screen/action-result.tsx';
import type { loader } from '../features/system/system-monitoring-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/system/system-monitoring-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/system-monitoring'))} · Group Finance Hub` },
];

export default function SystemMonitoring() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<ActionAnswer>() ?? null;
  return <SystemMonitoringScreen data={data} answer={answer} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
