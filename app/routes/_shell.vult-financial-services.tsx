// /vult-financial-services: the screen; its loader, action and access live in
// app/features/company-metrics/vult-financial-services-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { VultFinancialServicesScreen } from '../features/company-metrics/vult-financial-services-screen.tsx';
import type { loader } from '../features/company-metrics/vult-financial-services-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/company-metrics/vult-financial-services-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/vult-financial-services'))} · Group Finance Hub` },
];

export default function VultFinancialServices() {
  const data = useLoaderData<typeof loader>();
  return <VultFinancialServicesScreen data={data} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
