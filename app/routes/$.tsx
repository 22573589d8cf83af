// Every path without a route file of its own. Signed-out visitors get the landing page (with
// a 404 status for unknown paths, or the login page for known screens). Signed-in users get
// the 404 screen (every screen of the route table has a route file of its own).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { Landing } from '../features/dashboards/landing.tsx';
import { getAuth, requiredStep } from '../platform/session/session.server.ts';
import { findScreen } from '../platform/screen/navigation.ts';
import { landingPage } from '../features/dashboards/landing-stats.server.ts';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';

export const meta: MetaFunction = () => [{ title: 'Group Finance Hub' }];

/** Marks the catch-all for the route manifest. */
export const access: RouteAccess = [{ methods: { GET: allow.screen }, catchAll: true }];
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pathname, search } = new URL(request.url);
  const screen = findScreen(pathname);
  const auth = await getAuth(request, context);
  if (!auth) {
    if (screen) throw redirect(`/login?redirectTo=${encodeURIComponent(pathname + search)}`);
    return json({ view: 'landing' as const, ...(await landingPage(context.db)) }, { status: 404 });
  }
  const step = requiredStep(auth);
  if (step) throw redirect(step);
  // Every screen of the route table has a route file of its own: nothing else exists.
  throw new Response('Not Found', { status: 404 });
}

export default function CatchAll() {
  const data = useLoaderData<typeof loader>();
  return <Landing companies={data.companies} stats={data.stats} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
