// /companies: the screen; its loader, action and access live in
// app/features/finance/companies-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { CompaniesScreen } from '../features/finance/companies-screen.tsx';
import type { loader } from '../features/finance/companies-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/finance/companies-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/companies'))} · Group Finance Hub` },
];

export default function Companies() {
  const data = useLoaderData<typeof loader>();
  return <CompaniesScreen data={data} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
