import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLoaderData, useRouteError, useRouteLoaderData } from '@remix-run/react';
import { useEffect } from 'react';
import stylesheet from './tailwind.css';
import { useNonce } from './components/nonce.tsx';
import { ToastView } from './components/ui/toast.tsx';
import { getAuth } from './http/session.server.ts';
import { takeToast } from './http/toast.server.ts';
import { buildSidebar } from './lib/navigation.ts';
import { effectiveFlags } from './lib/permissions.ts';
import { appearanceClasses, type AppearanceSettings } from './lib/user-settings.ts';
import { listVisibleCompanies } from './services/companies.server.ts';
import { readAppearance } from './services/user-settings.server.ts';
import { toPublicUser } from './services/user-queries.server.ts';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [{ title: 'Group Finance Hub' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [auth, { toast, clear }] = await Promise.all([getAuth(request, context), takeToast(request, context)]);
  let shell = null;
  // The signed-in user's theme, compact sidebar and animations are applied in the server
  // render (classes on <html>), so a page never flashes the wrong theme (DESIGN §10).
  let appearance: AppearanceSettings | null = null;
  if (auth) {
    const [companies, stored] = await Promise.all([
      auth.mustChangePassword ? [] : listVisibleCompanies(context.db, auth.user),
      readAppearance(context.db, auth.user.id),
    ]);
    appearance = stored;
    shell = {
      user: toPublicUser(auth.user),
      permissions: effectiveFlags(auth.user),
      sidebar: auth.mustChangePassword ? [] : buildSidebar(auth.user, companies),
    };
  }
  return json({ shell, toast, appearance }, { headers: clear ? { 'Set-Cookie': clear } : {} });
}

export type RootData = ReturnType<typeof useLoaderData<typeof loader>>;

function Document({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>('root');
  const appearance = appearanceClasses(data?.appearance);
  return (
    <html lang="en" className={appearance ? `h-full ${appearance}` : 'h-full'}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={data?.appearance?.theme === 'dark' ? 'dark' : data?.appearance?.theme === 'system' ? 'light dark' : 'light'} />
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
