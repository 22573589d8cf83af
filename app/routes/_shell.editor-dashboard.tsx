// /editor-dashboard ('My Dashboard'): the signed-in editor's own figures.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { EDITOR_TABS, EditorDashboardScreen, type EditorTab } from '../features/dashboards/editor-dashboard-screen.tsx';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';
import { loadScreen, tabOf } from '../platform/screen/screen.server.ts';
import { editorMetrics } from '../features/dashboards/editor-dashboard.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { requestI18n } from '../features/shell/index.server.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/editor-dashboard'))} · Group Finance Hub` },
];

export const access: RouteAccess = [{ methods: { GET: allow.screen } }];

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url, request, auth }) => {
    const tab = tabOf(
      url,
      EDITOR_TABS.map((t) => t.key),
    ) as EditorTab;
    return json({ tab, metrics: await editorMetrics(ctx, new Date(), requestI18n(request, auth).t) });
  });

export default function EditorDashboard() {
  const { tab, metrics } = useLoaderData<typeof loader>();
  return <EditorDashboardScreen tab={tab} metrics={metrics} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
