import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLoaderData, useRouteError } from '@remix-run/react';
import { useEffect } from 'react';
import stylesheet from './tailwind.css';
import { useNonce } from './components/nonce.tsx';
import { ToastView } from './components/ui/toast.tsx';
import { getAuth } from './http/session.server.ts';
import { takeToast } from './http/toast.server.ts';
import { buildSidebar } from './lib/navigation.ts';
import { effectiveFlags } from './lib/permissions.ts';
import { listVisibleCompanies } from './services/companies.server.ts';
import { toPublicUser } from './services/users.server.ts';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [{ title: 'Group Finance Hub' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [auth, { toast, clear }] = await Promise.all([getAuth(request, context), takeToast(request, context)]);
  let shell = null;
  if (auth) {
    const companies = auth.mustChangePassword ? [] : await listVisibleCompanies(context.db, auth.user);
    shell = {
      user: toPublicUser(auth.user),
      permissions: effectiveFlags(auth.user),
      sidebar: auth.mustChangePassword ? [] : buildSidebar(auth.user, companies),
    };
  }
  return json({ shell, toast }, { headers: clear ? { 'Set-Cookie': clear } : {} });
}

export type RootData = ReturnType<typeof useLoaderData<typeof loader>>;

function Document({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="h-full">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  // Marks the page as interactive (browser tests wait for it before using client behaviour).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <Document>
      {toast ? <ToastView toast={toast} /> : null}
      <Outlet />
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <Document>
      <main className="mx-auto max-w-xl p-10 text-center">
        <h1 className="text-2xl font-semibold">{status === 404 ? '404 Page Not Found' : 'Something went wrong'}</h1>
        <p className="mt-2 text-slate-600">
          {status === 404 ? 'Did you forget to add the page to the router?' : 'An unexpected error occurred. Please try again.'}
        </p>
        <a href="/" className="mt-6 inline-block text-blue-700 underline">Go to the home page</a>
      </main>
    </Document>
  );
}
