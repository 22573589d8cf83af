// A form opened through the URL (?new=1, ?edit=ID): a panel on the page without JavaScript,
// a Headless UI dialog once the page is hydrated. Closing goes back to the list URL.
// The dialog's module (with Headless UI, ~37 KB gzipped) is fetched only when a form is shown:
// until it arrives the panel stays as the server rendered it, its fields disabled, since the
// form moves into the dialog (a new form) once it is there and would drop what was typed.
import { Link } from '@remix-run/react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useHydrated } from '../platform/lib/use-hydrated.ts';
import { CloseIcon } from './icons.tsx';
import { useT } from '../platform/i18n/i18n-context.tsx';

const FormDialog = lazy(() => import('./form-dialog.tsx'));

export function FormPanel({ title, closeTo, children }: { title: string; closeTo: string; children: ReactNode }) {
  const hydrated = useHydrated();
  const t = useT();
  // What had the focus when the form was shown (the link that opened it), for the dialog to give
  // it back: Headless UI only knows the focus moves made after its module loaded.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  const panel = (waiting: boolean) => (
    <section
      className="mb-6 rounded-lg border border-blue-200 bg-white p-5 shadow-sm"
      aria-labelledby="form-panel-title"
      data-testid="form-panel"
    >
      <div className="mb-4 flex items-center justify-between">
        <h2 id="form-panel-title" className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <Link
          to={closeTo}
          className="rounded p-1 text-slate-500 hover:bg-slate-100"
          aria-label={t('Close')}
          preventScrollReset
        >
          <CloseIcon />
        </Link>
      </div>
      {waiting ? (
        <fieldset disabled className="contents">
          {children}
        </fieldset>
      ) : (
        children
      )}
    </section>
  );
  if (!hydrated) return panel(false);
  return (
    <Suspense fallback={panel(true)}>
      <FormDialog title={title} closeTo={closeTo} opener={opener}>
        {children}
      </FormDialog>
    </Suspense>
  );
}
