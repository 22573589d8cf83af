// /editor-stats (spec 3 §2.7 'Editor Statistics'; owners and admins).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { EditorStatsScreen, STATS_TABS, type StatsTab } from '../components/editor/editor-stats-screen.tsx';
import { ShellErrorBoundary } from '../components/layout/error-screen.tsx';
import { allow, type RouteAccess } from '../http/route-access.ts';
import { loadScreen, tabOf } from '../http/screen.server.ts';
import { editorActivityHistory, editorStats } from '../services/editor-stats.server.ts';

export const meta: MetaFunction = () => [{ title: 'Editor Statistics · Group Finance Hub' }];

export const access: RouteAccess = [{ methods: { GET: allow.screen } }];

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
    const tab = tabOf(url, STATS_TABS.map((t) => t.key)) as StatsTab;
    const [stats, history] = await Promise.all([editorStats(ctx), tab === 'activity' ? editorActivityHistory(ctx) : null]);
    return json({ tab, stats, history });
  });

export default function EditorStatistics() {
  const { tab, stats, history } = useLoaderData<typeof loader>();
  return <EditorStatsScreen tab={tab} stats={stats} history={history} />;
}

/** Spec 3 §8: the page's own words when the user may not see it. */
export function ErrorBoundary() {
  return <ShellErrorBoundary forbiddenText="Unable to load editor statistics. Please check your permissions or contact support." />;
}
