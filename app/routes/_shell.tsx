// Pathless layout of the signed-in screens. Every child loader checks its own permission too
// (loaders run in parallel), so this one only makes sure somebody is signed in.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { Outlet } from '@remix-run/react';
import { AppShell } from '../features/shell/app-shell.tsx';
import { requireAuth } from '../platform/session/session.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  await requireAuth(request, context, {
    allowStep: pathname === '/change-password' || pathname === '/two-factor' ? pathname : undefined,
  });
  return null;
}

export default function ShellLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
