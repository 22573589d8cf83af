// Small form controls of the Settings page: plain HTML inputs, so every tab works without
// JavaScript.
import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useT } from '../../platform/i18n/i18n-context.tsx';

export function ErrorText({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className="text-sm text-red-700" data-testid={`${id}-error`}>
      {error}
    </p>
  ) : null;
}

export function Switch({
  name,
  label,
  description,
  defaultChecked,
  error,
}: {
  name: string;
  label: string;
  description?: ReactNode;
  defaultChecked: boolean;
  error?: string;
}) {
  const id = `setting-${name.replace(/\W/g, '-')}`;
  return (
    <div className="flex items-start justify-between gap-4 py-3">
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        {description ? <p className="text-xs text-slate-500">{description}</p> : null}
        <ErrorText id={id} error={error} />
      </div>
      <input
        id={id}
        name={name}
        type="checkbox"
        role="switch"
        defaultChecked={defaultChecked}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="mt-1 h-5 w-5 rounded border-slate-300 accent-blue-700"
      />
    </div>
  );
}

export function SelectField<T extends string | number>({
  name,
  label,
  options,
  value,
  format = String,
  error,
  hint,
}: {
  name: string;
  label: string;
  options: readonly T[];
  value: T;
  format?: (value: T) => string;
  error?: string;
  hint?: ReactNode;
}) {
  const id = `setting-${name.replace(/\W/g, '-')}`;
  const list = options.includes(value) ? options : [value, ...options];
  return (
    <div className="space-y-1 py-3">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={String(value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="block w-full max-w-sm rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
      >
        {list.map((option) => (
          <option key={String(option)} value={String(option)}>
            {format(option)}
          </option>
        ))}
      </select>
      {hint && !error ? <p className="text-xs text-slate-500">{hint}</p> : null}
      <ErrorText id={id} error={error} />
    </div>
  );
}

export function SaveButton({ busy, children }: { busy?: boolean; children?: ReactNode }) {
  const t = useT();
  return (
    <button
      type="submit"
      disabled={busy}
      className="mt-4 inline-flex items-center rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-blue-800 disabled:bg-blue-300"
    >
      {busy ? t('Saving...') : (children ?? t('Save Settings'))}
    </button>
  );
}

/** One tab's form: posts its fields with the tab as the intent, and ends with Save Settings. */
export function SettingsForm({ tab, busy, children }: { tab: string; busy?: boolean; children: ReactNode }) {
  return (
    <Form method="post" action={`/settings?tab=${tab}`} className="divide-y divide-slate-100">
      <input type="hidden" name="intent" value={tab} />
      {children}
      <div className="pt-2">
        <SaveButton busy={busy} />
      </div>
    </Form>
  );
}

export function StatusBadge({ status, children }: { status: 'ok' | 'warning' | 'error'; children: ReactNode }) {
  const styles = {
    ok: 'bg-green-100 text-green-800',
    warning: 'bg-amber-50 text-amber-900',
    error: 'bg-red-50 text-red-900',
  };
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${styles[status]}`}>{children}</span>
  );
}
