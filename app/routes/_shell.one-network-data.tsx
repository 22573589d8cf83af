// /one-network-data: the screen; its loader, action and access live in
// app/features/company-metrics/one-network-data-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { OneNetworkDataScreen } from '../features/company-metrics/one-network-data-screen.tsx';
import type { loader } from '../features/company-metrics/one-network-data-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/company-metrics/one-network-data-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/one-network-data'))} · Group Finance Hub` },
];

export default function OneNetworkData() {
  const data = useLoaderData<typeof loader>();
  return <OneNetworkDataScreen data={data} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
