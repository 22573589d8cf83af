import { useT } from '../platform/i18n/i18n-context.tsx';

/** Where the <time> goes in the translated sentence. */
const MARK = '\u0000';

/**
 * When figures read from a stored computation were computed (a job keeps them current). `ago` is
 * worded by the loader, so the server's and the browser's render agree.
 */
export function ComputedNote({ what, at, ago, testId }: { what: string; at: string; ago: string; testId?: string }) {
  const t = useT();
  const [before, after] = t('{what}, computed {ago}.', { what, ago: MARK }).split(MARK);
  return (
    <p className="text-sm text-slate-600" data-testid={testId}>
      {before}
      <time dateTime={at}>{ago}</time>
      {after}
    </p>
  );
}
