// /editor-stats ('Editor Statistics'): the screen; its loader and access live in
// app/features/users/editor-stats-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { EditorStatsScreen } from '../features/users/editor-stats-screen.tsx';
import type { loader } from '../features/users/editor-stats-route.server.ts';
import { ShellErrorBoundary } from '../features/shell/error-screen.tsx';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';
import { msg } from '../platform/i18n/messages.ts';

export { access, loader } from '../features/users/editor-stats-route.server.ts';

export const meta: MetaFunction = ({ matches }) => {
  const t = metaTranslate(matches);
  return [{ title: `${t('Editor Statistics')} · Group Finance Hub` }];
};

export default function EditorStatistics() {
  const { tab, stats, paging, history } = useLoaderData<typeof loader>();
  return <EditorStatsScreen tab={tab} stats={stats} paging={paging} history={history} />;
}

/** The page's own words when the user may not see it. */
export function ErrorBoundary() {
  return (
    <ShellErrorBoundary
      forbiddenText={msg('Unable to load editor statistics. Please check your permissions or contact support.')}
    />
  );
}
