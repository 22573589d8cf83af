// A pop-over of the top bar (the bell's notifications, the gear's quick settings), once the page
// is hydrated: a button with aria-expanded, and the panel right after it in the DOM, so it
// follows the button in the tab order. It closes on Escape (the focus back on the button), a
// click outside, the focus leaving it, the button again, or `close` (a link in it followed).
// Positioned by CSS in place, not anchored or portalled. A few lines instead of a pop-over
// library that every page would load.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface Props {
  /** The button's content and attributes (title, aria-label, test id, class). */
  button: { className: string; title: string; label: string; testId?: string; content: ReactNode };
  /** The panel's attributes. */
  panel: { className: string; label: string; testId?: string };
  /** The panel's content, rendered only while open. */
  children: (close: () => void) => ReactNode;
}

export function Popover({ button, panel, children }: Props) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const outside = (target: EventTarget | null) => !(target instanceof Node && root.current?.contains(target));
    const onPointer = (event: MouseEvent) => outside(event.target) && setOpen(false);
    const onFocus = (event: FocusEvent) => outside(event.target) && setOpen(false);
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setOpen(false);
      trigger.current?.focus();
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('focusin', onFocus);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <button
        ref={trigger}
        type="button"
        className={button.className}
        title={button.title}
        aria-label={button.label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-testid={button.testId}
        onClick={() => setOpen((was) => !was)}
      >
        {button.content}
      </button>
      {open ? (
        <div id={panelId} tabIndex={-1} className={panel.className} aria-label={panel.label} data-testid={panel.testId}>
          {children(() => setOpen(false))}
        </div>
      ) : null}
    </div>
  );
}
