// Every path without a route file of its own. Signed-out visitors get the landing page (with
// a 404 status for unknown paths, or the login page for known screens). Signed-in users get
// the screens of the route table that are not built yet, a 403 or the 404 screen.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { AppShell } from '../components/layout/app-shell.tsx';
import { NotYetAvailable } from '../components/layout/not-yet-available.tsx';
import { Landing } from '../components/landing.tsx';
import { forbiddenResponse, getAuth, serviceContext } from '../http/session.server.ts';
import { canOpen, companyMetricItems, findScreen } from '../lib/navigation.ts';
import { listVisibleCompanies } from '../services/companies.server.ts';
import { landingPage } from '../services/landing-stats.server.ts';
import { allow, type RouteAccess } from '../http/route-access.ts';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && 'title' in data ? `${data.title} · Group Finance Hub` : 'Group Finance Hub' },
];

/** The route table's screens that have no route file of their own. */
export const access: RouteAccess = [{ methods: { GET: allow.screen }, catchAll: true }];
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pathname, search } = new URL(request.url);
  const screen = findScreen(pathname);
  const auth = await getAuth(request, context);
  if (!auth) {
    if (screen) throw redirect(`/login?redirectTo=${encodeURIComponent(pathname + search)}`);
    return json({ view: 'landing' as const, ...(await landingPage(context.db)) }, { status: 404 });
  }
  if (auth.mustChangePassword) throw redirect('/change-password');
  if (!screen) throw new Response('Not Found', { status: 404 });
  if (!canOpen(auth.user, screen)) throw forbiddenResponse();
  // A company's own screens exist only for users who can see that company (DESIGN §5: 404).
  if (screen.group === 'Company Metrics') {
    const items = companyMetricItems(await listVisibleCompanies(serviceContext(request, context, auth)));
    if (!items.some((item) => item.path === screen.path)) throw new Response('Not Found', { status: 404 });
  }
  return json({ view: 'screen' as const, title: screen.title });
}

export default function CatchAll() {
  const data = useLoaderData<typeof loader>();
  if (data.view === 'landing') return <Landing companies={data.companies} stats={data.stats} />;
  return (
    <AppShell>
      <NotYetAvailable />
    </AppShell>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
