// /one-network-subscription-metrics: the screen; its loader, action and access live in
// app/features/company-metrics/one-network-subscriptions-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { OneNetworkSubscriptionsScreen } from '../features/company-metrics/one-network-subscriptions-screen.tsx';
import type { loader } from '../features/company-metrics/one-network-subscriptions-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/company-metrics/one-network-subscriptions-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/one-network-subscription-metrics'))} · Group Finance Hub` },
];

export default function OneNetworkSubscriptions() {
  const data = useLoaderData<typeof loader>();
  return <OneNetworkSubscriptionsScreen data={data} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
