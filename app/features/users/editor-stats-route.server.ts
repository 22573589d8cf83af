// The /editor-stats route's server half ('Editor Statistics'; owners and admins).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { EDITORS_PAGE_SIZE, FEED_SHOWN, STATS_TABS, type StatsTab } from './editor-stats-screen.tsx';
import { allow, type RouteAccess } from '../../platform/screen/route-access.ts';
import { loadScreen, tabOf } from '../../platform/screen/screen.server.ts';
import { lastPage } from '../../platform/lib/paging.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import { editorActivityHistory, editorStats } from './editor-stats.server.ts';
import { relativeTime } from '../../platform/i18n/relative-time.ts';
import { requestI18n } from '../shell/index.server.ts';

export const access: RouteAccess = [{ methods: { GET: allow.screen } }];

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url, request, auth }) => {
    const tab = tabOf(
      url,
      STATS_TABS.map((t) => t.key),
    ) as StatsTab;
    const [stats, history] = await Promise.all([
      editorStats(ctx),
      tab === 'activity' ? editorActivityHistory(ctx) : null,
    ]);
    // Only what the tab shows goes to the page: one page of the editors (Overview, Performance)
    // and the feed's shown entries.
    const size = EDITORS_PAGE_SIZE[tab];
    const pages = size ? lastPage(stats.editors.length, size) : 1;
    const page = Math.min(positiveIdParam(url.searchParams.get('page')) ?? 1, pages);
    const editors = size ? stats.editors.slice((page - 1) * size, page * size) : [];
    const { t, formats } = requestI18n(request, auth);
    const computedAgo = relativeTime(t, formats, stats.computedAt, Date.now(), true);
    return json({
      tab,
      stats: { ...stats, editors, computedAgo },
      paging: { page, pages, size, total: stats.editors.length },
      history: history?.slice(0, FEED_SHOWN) ?? null,
    });
  });
