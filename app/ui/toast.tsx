import { useEffect, useState } from 'react';
import type { Toast } from '../platform/lib/toast.ts';

const STYLES = {
  success: 'border-green-300 bg-green-50 text-green-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  info: 'border-blue-300 bg-blue-50 text-blue-900',
};

/** A flash message rendered in the HTML, so it shows without JavaScript too. */
export function ToastView({ toast }: { toast: Toast }) {
  const [open, setOpen] = useState(true);
  useEffect(() => {
    setOpen(true);
    const timer = setTimeout(() => setOpen(false), 5000);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!open) return null;
  return (
    <div
      role={toast.type === 'error' ? 'alert' : 'status'}
      data-testid="toast"
      className={`fixed bottom-4 right-4 z-50 w-80 max-w-[calc(100vw-2rem)] rounded-lg border p-4 shadow-lg ${STYLES[toast.type]}`}
    >
      <p className="font-semibold">{toast.title}</p>
      {toast.description ? <p className="mt-1 text-sm">{toast.description}</p> : null}
    </div>
  );
}
