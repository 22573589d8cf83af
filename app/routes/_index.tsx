// "/": the landing page for visitors, the dashboard for signed-in users.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { AppShell, PageHeading } from '../components/layout/app-shell.tsx';
import { AccessCard } from '../components/dashboard/access-card.tsx';
import { Landing } from '../components/landing.tsx';
import { getAuth, serviceContext } from '../http/session.server.ts';
import { listCompanyCards } from '../services/companies.server.ts';
import { getUserAccess } from '../services/dashboard.server.ts';
import { allow, type RouteAccess } from '../http/route-access.ts';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.view === 'dashboard' ? 'Dashboard · Group Finance Hub' : 'Group Finance Hub' },
];

export const access: RouteAccess = [{ methods: { GET: allow.public } }];
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await getAuth(request, context);
  if (!auth) return json({ view: 'landing' as const, companies: await listCompanyCards(context.db) });
  if (auth.mustChangePassword) throw redirect('/change-password');
  return json({
    view: 'dashboard' as const,
    access: await getUserAccess(serviceContext(request, context, auth)),
    updatedAt: new Date().toISOString(),
  });
}

export default function Index() {
  const data = useLoaderData<typeof loader>();
  if (data.view === 'landing') return <Landing companies={data.companies} />;
  return (
    <AppShell>
      <PageHeading title="Dashboard">
        <p className="text-sm text-slate-500">
          Last updated: <time dateTime={data.updatedAt}>{new Date(data.updatedAt).toLocaleString('en-US', { timeZone: 'UTC' })} UTC</time>
        </p>
      </PageHeading>
      <AccessCard access={data.access} />
    </AppShell>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
