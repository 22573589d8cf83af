import { Link, isRouteErrorResponse, useRouteError } from '@remix-run/react';
import { AppShell } from './app-shell.tsx';
import { ShieldIcon } from '../../ui/icons.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';

export function NotFoundScreen() {
  const t = useT();
  return (
    <div className="mx-auto max-w-lg py-16 text-center" data-testid="not-found">
      <h1 className="text-3xl font-bold text-slate-900">{t('404 Page Not Found')}</h1>
      <p className="mt-3 text-slate-600">{t('Did you forget to add the page to the router?')}</p>
      <Link to="/" className="mt-6 inline-block text-blue-700 underline">
        {t('Back to the dashboard')}
      </Link>
    </div>
  );
}

/**
 * `forbiddenText`: a screen's own message for a 403 (Editor Statistics). `message`: the
 * server's words for a 429 (the rate limits, work already running), with when to try again.
 */
export function ErrorScreen({
  status,
  forbiddenText,
  message,
}: {
  status: number;
  forbiddenText?: string;
  message?: string;
}) {
  const t = useT();
  if (status === 404) return <NotFoundScreen />;
  if (status === 429) {
    return (
      <div className="mx-auto max-w-lg py-16 text-center" data-testid="too-many-requests">
        <h1 className="text-3xl font-bold text-slate-900">{t('429 Too Many Requests')}</h1>
        <p className="mt-3 text-slate-600" role="alert">
          {message || t('Too many requests. Please try again in a moment.')}
        </p>
        <Link to="/" className="mt-6 inline-block text-blue-700 underline">
          {t('Back to the dashboard')}
        </Link>
      </div>
    );
  }
  if (status === 403) {
    return (
      <div className="mx-auto max-w-lg py-16 text-center" data-testid="forbidden">
        <ShieldIcon className="mx-auto h-10 w-10 text-red-600" />
        <h1 className="mt-3 text-3xl font-bold text-slate-900">{t('403 Access Denied')}</h1>
        <p className="mt-3 text-slate-600">
          {forbiddenText
            ? t(forbiddenText)
            : t('You do not have permission to open this page. Ask an administrator if you need access.')}
        </p>
        <Link to="/" className="mt-6 inline-block text-blue-700 underline">
          {t('Back to the dashboard')}
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-3xl font-bold text-slate-900">{t('Something went wrong')}</h1>
      <p className="mt-3 text-slate-600">{t('An unexpected error occurred. Please try again in a moment.')}</p>
    </div>
  );
}

/** Error boundary of the signed-in screens: the 403/404/500 screen inside the layout. */
export function ShellErrorBoundary({ forbiddenText }: { forbiddenText?: string } = {}) {
  const error = useRouteError();
  return (
    <AppShell>
      <ErrorScreen
        status={isRouteErrorResponse(error) ? error.status : 500}
        forbiddenText={forbiddenText}
        message={isRouteErrorResponse(error) && typeof error.data === 'string' ? error.data : undefined}
      />
    </AppShell>
  );
}
