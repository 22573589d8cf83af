// "/": the landing page for visitors, the dashboard for signed-in users (with JavaScript its
// figures refresh every 30 s while the tab is visible; without, each load is fresh).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { AppShell } from '../features/shell/app-shell.tsx';
import { DashboardScreen } from '../features/dashboards/dashboard-screen.tsx';
import { Landing } from '../features/dashboards/landing.tsx';
import { getAuth, requiredStep, serviceContext } from '../platform/session/session.server.ts';
import { landingPage } from '../features/dashboards/landing-stats.server.ts';
import { getDashboard } from '../features/dashboards/dashboard.server.ts';
import { healthOptions } from '../features/system/health-options.server.ts';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslate(matches);
  return [{ title: data?.view === 'dashboard' ? `${t('Dashboard')} · Group Finance Hub` : 'Group Finance Hub' }];
};

export const access: RouteAccess = [{ methods: { GET: allow.public } }];
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await getAuth(request, context);
  if (!auth) return json({ view: 'landing' as const, ...(await landingPage(context.db)) });
  const step = requiredStep(auth);
  if (step) throw redirect(step);
  return json({
    view: 'dashboard' as const,
    dashboard: await getDashboard(serviceContext(request, context, auth), healthOptions(context)),
  });
}

export default function Index() {
  const data = useLoaderData<typeof loader>();
  if (data.view === 'landing') return <Landing companies={data.companies} stats={data.stats} />;
  return (
    <AppShell>
      <DashboardScreen data={data.dashboard} />
    </AppShell>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
