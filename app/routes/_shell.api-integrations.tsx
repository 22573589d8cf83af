// /api-integrations: the screen; its loader, action and access live in
// app/features/integrations/api-integrations-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { IntegrationsScreen } from '../features/integrations/api-integrations-screen.tsx';
import type { action, loader } from '../features/integrations/api-integrations-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/integrations/api-integrations-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/api-integrations'))} · Group Finance Hub` },
];

export default function ApiIntegrationsPage() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as
    { result?: { error?: Record<string, string[]> }; intent?: string } | undefined;
  return <IntegrationsScreen data={data} answer={answer} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
