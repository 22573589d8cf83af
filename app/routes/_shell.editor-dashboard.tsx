// /editor-dashboard ('My Dashboard'): the signed-in editor's own figures.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { EDITOR_TABS, EditorDashboardScreen, type EditorTab } from '../features/dashboards/editor-dashboard-screen.tsx';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';
import { loadScreen, tabOf } from '../platform/screen/screen.server.ts';
import { editorMetrics } from '../features/dashboards/editor-dashboard.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';

export const meta: MetaFunction = () => [{ title: `${screenTitle('/editor-dashboard')} · Group Finance Hub` }];

export const access: RouteAccess = [{ methods: { GET: allow.screen } }];

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
    const tab = tabOf(
      url,
      EDITOR_TABS.map((t) => t.key),
    ) as EditorTab;
    return json({ tab, metrics: await editorMetrics(ctx) });
  });

export default function EditorDashboard() {
  const { tab, metrics } = useLoaderData<typeof loader>();
  return <EditorDashboardScreen tab={tab} metrics={metrics} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
