// A form opened through the URL (?new=1, ?edit=ID): a panel on the page without JavaScript,
// a modal <dialog> once the page is hydrated. Closing goes back to the list URL.
//
// The browser's own modal dialog (showModal) does what a dialog library would ship in JS: the
// top layer, the rest of the page inert (out of reach of pointer, keyboard and screen reader),
// Escape (its cancel event) and the initial focus. Left to this component: Tab cycling inside
// (rather than leaving for the browser's own controls), a click beside the panel closing it,
// no scrolling of the page behind, and the focus going back to where it was (the link that
// opened it) once it closes.
import { Link, useNavigate } from '@remix-run/react';
import { useEffect, useId, useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { CloseIcon } from './icons.tsx';

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements Tab reaches inside `root`, in order (a radio group counts by its checked radio). */
function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => {
    if (el.tabIndex < 0 || el.getClientRects().length === 0) return false;
    if (el instanceof HTMLInputElement && el.type === 'radio' && !el.checked && el.name) {
      return !root.querySelector(`input[type="radio"][name="${CSS.escape(el.name)}"]:checked`);
    }
    return true;
  });
}

export function FormPanel({ title, closeTo, children }: { title: string; closeTo: string; children: ReactNode }) {
  const hydrated = useHydrated();
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
  return <FormDialog title={title} closeTo={closeTo}>{children}</FormDialog>;
}

function FormDialog({ title, closeTo, children }: { title: string; closeTo: string; children: ReactNode }) {
  const navigate = useNavigate();
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // Set once the dialog is leaving, so it navigates back to the list once only.
  const leaving = useRef(false);
  const close = () => {
    if (leaving.current) return;
    leaving.current = true;
    navigate(closeTo, { preventScrollReset: true });
  };
  // Where a click began: a text selection dragged out of the panel is not a click beside it.
  const pressedInside = useRef(false);
  const inPanel = (target: EventTarget) => !!panel.current && target instanceof Node && panel.current.contains(target);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const html = document.documentElement;
    const overflow = html.style.overflow;
    html.style.overflow = 'hidden';
    if (!element.open) element.showModal();
    return () => {
      leaving.current = true;
      html.style.overflow = overflow;
      if (element.open) element.close();
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const list = tabbables(dialog.current);
    if (list.length === 0) return;
    const first = list[0];
    const last = list[list.length - 1];
    const active = document.activeElement;
    if (event.shiftKey ? active === first || active === dialog.current : active === last) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  };

  // A click beside the panel (on the dialog's transparent area around it) closes it.
  const onClick = (event: MouseEvent<HTMLDialogElement>) => {
    if (!pressedInside.current && !inPanel(event.target)) close();
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      // Escape: the list URL closes it. The browser may close it first (a cancel event that is
      // not cancelable, as when nothing was clicked since the page loaded): then follow it.
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClose={close}
      onKeyDown={onKeyDown}
      onMouseDown={(event) => {
        pressedInside.current = inPanel(event.target);
      }}
      onClick={onClick}
      className="fixed inset-0 z-40 m-0 h-full max-h-none w-full max-w-none overflow-y-auto bg-transparent p-4 text-inherit backdrop:bg-slate-900/40"
    >
      <div className="flex min-h-full items-start justify-center sm:items-center">
        <div ref={panel} className="max-h-[90vh] w-full max-w-2xl overflow-y-auto rounded-lg bg-white p-5 shadow-xl" data-testid="form-panel">
          <div className="mb-4 flex items-center justify-between">
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">{title}</h2>
            <Link to={closeTo} className="rounded p-1 text-slate-500 hover:bg-slate-100" aria-label="Close" preventScrollReset>
              <CloseIcon />
            </Link>
          </div>
          {children}
        </div>
      </div>
    </dialog>
  );
}
