// Form primitives: labelled fields with their error beside them, buttons, alerts.
import type { ReactNode } from 'react';

export function Field({
  label,
  id,
  error,
  children,
  hint,
}: {
  label: string;
  id: string;
  error?: string | string[] | null;
  hint?: ReactNode;
  children: ReactNode;
}) {
  const message = Array.isArray(error) ? error[0] : error;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint && !message ? <p className="text-xs text-slate-500">{hint}</p> : null}
      {message ? (
        <p id={`${id}-error`} className="text-sm text-red-700" data-testid={`${id}-error`}>
          {message}
        </p>
      ) : null}
    </div>
  );
}

/** `.input` (tailwind.css) styles every text input and select; bg-white stays a class for the dark theme. */
export const inputClass = 'input bg-white';

export function Button({
  children,
  variant = 'primary',
  className = '',
  ...props
}: React.ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'danger' }) {
  const styles = {
    primary: 'bg-blue-700 text-white hover:bg-blue-800 disabled:bg-blue-300',
    secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
    danger: 'bg-red-600 text-white hover:bg-red-700',
  };
  return (
    <button
      {...props}
      className={`inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium shadow-sm ${styles[variant]} ${className}`}
    >
      {children}
    </button>
  );
}

export function Alert({
  children,
  tone = 'error',
  title,
}: {
  children?: ReactNode;
  tone?: 'error' | 'warning' | 'info' | 'success';
  title?: string;
}) {
  const styles = {
    error: 'border-red-300 bg-red-50 text-red-900',
    warning: 'border-amber-300 bg-amber-50 text-amber-900',
    info: 'border-blue-300 bg-blue-50 text-blue-900',
    success: 'border-green-300 bg-green-50 text-green-900',
  };
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-md border p-3 text-sm ${styles[tone]}`}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children}
    </div>
  );
}

/** A bordered panel. min-w-0: in a grid or flex row it is as narrow as its track, and wide content (charts, tables) scrolls inside it. */
export function Card({
  title,
  children,
  className = '',
}: {
  title?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm ${className}`}>
      {title ? <h2 className="mb-3 text-base font-semibold text-slate-900">{title}</h2> : null}
      {children}
    </section>
  );
}
