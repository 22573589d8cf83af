// /vult-subscriber-metrics: the screen; its loader, action and access live in
// app/features/company-metrics/vult-subscriber-metrics-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { VultSubscriberMetricsScreen } from '../features/company-metrics/vult-subscriber-metrics-screen.tsx';
import type { loader } from '../features/company-metrics/vult-subscriber-metrics-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/company-metrics/vult-subscriber-metrics-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/vult-subscriber-metrics'))} · Group Finance Hub` },
];

export default function VultSubscriberMetrics() {
  const data = useLoaderData<typeof loader>();
  return <VultSubscriberMetricsScreen data={data} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
