// The hydrated form panel: a Headless UI dialog. Its own module, loaded by
// FormPanel only once a form is shown, so a list page does not load Headless UI with the page.
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { Link, useNavigate } from '@remix-run/react';
import { useEffect, type ReactNode } from 'react';
import { CloseIcon } from './icons.tsx';
import { useT } from '../platform/i18n/i18n-context.tsx';

export default function FormDialog({
  title,
  closeTo,
  opener,
  children,
}: {
  title: string;
  closeTo: string;
  opener: Element | null;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const t = useT();
  // Closed: the focus goes back to what had it when the form was shown, unless Headless UI has
  // put it somewhere already (after its own clean-up, hence the next frame).
  useEffect(
    () => () => {
      requestAnimationFrame(() => {
        const lost = !document.activeElement || document.activeElement === document.body;
        if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
      });
    },
    [opener],
  );
  return (
    <Dialog open onClose={() => navigate(closeTo, { preventScrollReset: true })} className="relative z-40">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 flex items-start justify-center overflow-y-auto p-4 sm:items-center">
        <DialogPanel
          className="max-h-[90vh] w-full max-w-2xl overflow-y-auto rounded-lg bg-white p-5 shadow-xl"
          data-testid="form-panel"
        >
          <div className="mb-4 flex items-center justify-between">
            <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
            <Link
              to={closeTo}
              className="rounded p-1 text-slate-500 hover:bg-slate-100"
              aria-label={t('Close')}
              preventScrollReset
            >
              <CloseIcon />
            </Link>
          </div>
          {children}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
