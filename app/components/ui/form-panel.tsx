// A form opened through the URL (?new=1, ?edit=ID): a panel on the page without JavaScript,
// a Headless UI dialog once the page is hydrated. Closing goes back to the list URL.
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { Link, useNavigate } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { CloseIcon } from './icons.tsx';

export function FormPanel({ title, closeTo, children }: { title: string; closeTo: string; children: ReactNode }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  if (!hydrated) {
    return (
      <section className="mb-6 rounded-lg border border-blue-200 bg-white p-5 shadow-sm" aria-labelledby="form-panel-title" data-testid="form-panel">
        <div className="mb-4 flex items-center justify-between">
          <h2 id="form-panel-title" className="text-lg font-semibold text-slate-900">{title}</h2>
          <Link to={closeTo} className="rounded p-1 text-slate-500 hover:bg-slate-100" aria-label="Close" preventScrollReset>
            <CloseIcon />
          </Link>
        </div>
        {children}
      </section>
    );
  }
  return (
    <Dialog open onClose={() => navigate(closeTo, { preventScrollReset: true })} className="relative z-40">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 flex items-start justify-center overflow-y-auto p-4 sm:items-center">
        <DialogPanel className="max-h-[90vh] w-full max-w-2xl overflow-y-auto rounded-lg bg-white p-5 shadow-xl" data-testid="form-panel">
          <div className="mb-4 flex items-center justify-between">
            <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
            <Link to={closeTo} className="rounded p-1 text-slate-500 hover:bg-slate-100" aria-label="Close" preventScrollReset>
              <CloseIcon />
            </Link>
          </div>
          {children}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
