import type { LinksFunction, MetaFunction } from '@remix-run/node';
import type { ClientLoaderFunctionArgs, ShouldRevalidateFunction } from '@remix-run/react';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react';
import { useEffect } from 'react';
import stylesheet from './tailwind.css';
import { useNonce } from './ui/nonce.tsx';
import { ToastView } from './ui/toast.tsx';
import type { Toast } from './platform/lib/toast.ts';
import { useAppLinkNavigation } from './ui/app-link.tsx';
import { documentLoader } from './features/shell/index.server.ts';
import { appearanceClasses } from './features/settings/index.ts';
import { documentAreas } from './features/shell/page-areas.ts';
import { I18nProvider, useT } from './platform/i18n/i18n-context.tsx';
import { DEFAULT_PREFERENCES } from './platform/i18n/preferences.ts';
import { loadMessageFiles, messagesOf } from './platform/i18n/message-files.ts';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [{ title: 'Group Finance Hub' }];

export const loader = documentLoader;

/**
 * After a navigation or an action, the page's message files (another area's, another language's)
 * are loaded before it renders. The first render uses the files the document named.
 */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const data = await serverLoader<typeof loader>();
  await loadMessageFiles(data.messageFiles);
  return data;
}

/** A page of another area needs that area's messages, which come with the document's data. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  defaultShouldRevalidate || documentAreas(currentUrl.pathname).join() !== documentAreas(nextUrl.pathname).join();

function Document({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>('root');
  const appearance = appearanceClasses(data?.appearance);
  // Marks the page as interactive (browser tests wait for it before using client behaviour, and
  // the no-JS project asserts it is absent). In the Document, so error pages are marked too.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  useAppLinkNavigation();
  const preferences = data?.preferences ?? DEFAULT_PREFERENCES;
  return (
    <html lang={preferences.locale} className={appearance ? `h-full ${appearance}` : 'h-full'}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta
          name="color-scheme"
          content={
            data?.appearance?.theme === 'dark' ? 'dark' : data?.appearance?.theme === 'system' ? 'light dark' : 'light'
          }
        />
        <Meta />
        <Links />
      </head>
      <body className="h-full">
        <I18nProvider preferences={preferences} messages={messagesOf(data?.messageFiles)}>
          {children}
        </I18nProvider>
        {/* Before the app's modules: each file registers its messages as it runs. */}
        {data?.messageFiles?.map((file) => (
          <script key={file.key} src={file.src} nonce={nonce} />
        ))}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  return (
    <Document>
      {toast ? <SessionToast toast={toast} /> : null}
      <Outlet />
    </Document>
  );
}

/**
 * The toast an action left in the session. Its words come translated, but for a title the
 * screen kit gives every success ('Success', a message), translated here in the reader's language.
 */
function SessionToast({ toast }: { toast: Toast }) {
  const t = useT();
  return <ToastView toast={{ ...toast, title: t(toast.title) }} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <Document>
      <DocumentError status={status} />
    </Document>
  );
}

function DocumentError({ status }: { status: number }) {
  const t = useT();
  return (
    <main className="mx-auto max-w-xl p-10 text-center">
      <h1 className="text-2xl font-semibold">{status === 404 ? t('404 Page Not Found') : t('Something went wrong')}</h1>
      <p className="mt-2 text-slate-600">
        {status === 404
          ? t('Did you forget to add the page to the router?')
          : t('An unexpected error occurred. Please try again.')}
      </p>
      <a href="/" className="mt-6 inline-block text-blue-700 underline">
        {t('Go to the home page')}
      </a>
    </main>
  );
}
