// Building links that change a few URL parameters and keep the rest (list state in the URL).

export function withParams(search: string | URLSearchParams, changes: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') params.delete(key);
    else params.set(key, String(value));
  }
  params.delete('index');
  const text = params.toString();
  return text ? `?${text}` : '?';
}
