// The page side of the screen kit (app/platform/screen/screen.server.ts): what the last action answered,
// the list URL forms close to, the form-level error and the tab bar. Isomorphic.
import type { SubmissionResult } from '@conform-to/react';
import { Link, useLocation } from '@remix-run/react';
import { listHref } from '../lib/url.ts';
import { Alert } from '../../ui/form.tsx';

/** Anything an action answered: a failure (ActionFailure on the server), or an intent's own data. */
export type ActionAnswer = { intent: string; result?: SubmissionResult<string[]> };

/** conform's lastResult for the form of `intent`, when the last action was that intent. */
export function resultFor(
  answer: ActionAnswer | null | undefined,
  intent: string,
): SubmissionResult<string[]> | undefined {
  return answer?.intent === intent ? answer.result : undefined;
}

/** The form-level error of the last action (conform keeps form errors under the '' key). */
export function formErrorOf(answer: ActionAnswer | null | undefined): string | null {
  return answer?.result?.error?.['']?.[0] ?? null;
}

/** The first error of each field of the last action (for forms rendered without useForm). */
export function fieldErrorsOf(answer: ActionAnswer | null | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, messages] of Object.entries(answer?.result?.error ?? {}))
    if (field && messages?.length) errors[field] = messages[0];
  return errors;
}

/** The current list URL without the forms' parameters: where Cancel and Close go. */
export function useCloseUrl(): string {
  const { pathname, search } = useLocation();
  return listHref(pathname, search);
}

/** A form's error (conform's form.errors) as an alert. */
export function FormError({ errors, title }: { errors: string[] | undefined; title?: string }) {
  return errors?.length ? <Alert title={title}>{errors[0]}</Alert> : null;
}

/** Tabs as links (?tab=…), so they work without JavaScript. */
/** `wideOnly`: a tab left out below the md breakpoint. */
export function TabNav({
  tabs,
  current,
  label,
}: {
  /** `named`: the label is a name (a company's), not a message. */
  tabs: readonly { key: string; label: string; to: string; wideOnly?: boolean; named?: boolean }[];
  current: string;
  label: string;
}) {
  return (
    <nav className="mb-4 flex flex-wrap gap-1 border-b border-slate-200" aria-label={label}>
      {tabs.map((t) => (
        <Link
          key={t.key}
          to={t.to}
          aria-current={t.key === current ? 'page' : undefined}
          translate={t.named ? 'no' : undefined}
          className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${t.wideOnly ? 'hidden md:inline-block' : ''} ${t.key === current ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
