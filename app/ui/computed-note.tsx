/**
 * When figures read from a stored computation were computed (a job keeps them current). `ago` is
 * worded by the loader, so the server's and the browser's render agree.
 */
export function ComputedNote({ what, at, ago, testId }: { what: string; at: string; ago: string; testId?: string }) {
  return (
    <p className="text-sm text-slate-600" data-testid={testId}>
      {`${what}, computed `}
      <time dateTime={at}>{ago}</time>.
    </p>
  );
}
