// Building links that change a few URL parameters and keep the rest (list state in the URL).

export function withParams(
  search: string | URLSearchParams,
  changes: Record<string, string | number | null | undefined>,
): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') params.delete(key);
    else params.set(key, String(value));
  }
  params.delete('index');
  const text = params.toString();
  return text ? `?${text}` : '?';
}

/** URL parameters that open a form or a panel on a list screen (?new=1, ?edit=12, …). */
export const FORM_PARAMS = ['new', 'edit', 'permissions', 'index', 'resolve'] as const;

/** The list URL: this one without the forms' parameters (where Cancel, Close and a save return). */
export function listHref(pathname: string, search: string | URLSearchParams): string {
  const params = new URLSearchParams(search);
  for (const key of FORM_PARAMS) params.delete(key);
  const text = params.toString();
  return `${pathname}${text ? `?${text}` : ''}`;
}
