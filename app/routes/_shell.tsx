// Pathless layout of the signed-in screens. Every child loader checks its own permission too
// (loaders run in parallel), so this one only makes sure somebody is signed in.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { Outlet, isRouteErrorResponse, useRouteError } from '@remix-run/react';
import { AppShell } from '../components/layout/app-shell.tsx';
import { ErrorScreen } from '../components/layout/error-screen.tsx';
import { requireAuth } from '../http/session.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  await requireAuth(request, context, { allowPasswordChange: url.pathname === '/change-password' });
  return null;
}

export default function ShellLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <AppShell>
      <ErrorScreen status={isRouteErrorResponse(error) ? error.status : 500} />
    </AppShell>
  );
}
