// /ai-analytics: the screen; its loader, action and access live in
// app/features/ai/ai-analytics-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { AiAnalyticsScreen } from '../features/ai/ai-analytics-screen.tsx';
import type { action, loader } from '../features/ai/ai-analytics-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/ai/ai-analytics-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/ai-analytics'))} · Group Finance Hub` },
];

export default function AiAnalyticsPage() {
  const data = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as { result?: { error?: Record<string, string[]> } } | undefined;
  return <AiAnalyticsScreen data={data} failure={failure} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
