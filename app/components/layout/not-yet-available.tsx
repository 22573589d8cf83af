// Screens whose feature has not been built yet: the heading, and an honest sentence.
import { useLocation } from '@remix-run/react';
import { findScreen } from '../../lib/navigation.ts';
import { PageHeading } from './app-shell.tsx';

export function NotYetAvailable() {
  const { pathname } = useLocation();
  const title = findScreen(pathname)?.title ?? 'Page';
  return (
    <div data-testid="not-yet-available">
      <PageHeading title={title} />
      <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
        <p className="font-medium text-slate-800">This screen is not available yet.</p>
        <p className="mt-1 text-sm">It is part of an upcoming release; no data is shown here until it is built.</p>
      </div>
    </div>
  );
}
