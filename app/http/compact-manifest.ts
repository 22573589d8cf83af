// Remix writes the page's route manifest into the module script pretty-printed (a 2-space
// indented JSON.stringify), and every page carries it: a quarter of it is whitespace. The page is
// rendered to one string anyway (entry.server), so the manifest is rewritten compact. Anything
// unexpected (another shape, characters Remix escapes for HTML) leaves the page as it was.
// A route's `has…: false` flags are left out too: the client only tests them for truth
// (@remix-run/react's routes.js, components.js, links.js), and four per route add up.
const START = 'window.__remixManifest = ';
const END = ';\nwindow.__remixRouteModules';

const withoutFalseFlags = (key: string, value: unknown) => (value === false && /^has[A-Z]/.test(key) ? undefined : value);

export function compactManifest(html: string): string {
  const start = html.lastIndexOf(START);
  if (start < 0) return html;
  const from = start + START.length;
  const end = html.indexOf(END, from);
  if (end < 0) return html;
  let compact: string;
  try {
    compact = JSON.stringify(JSON.parse(html.slice(from, end), withoutFalseFlags));
  } catch {
    return html;
  }
  if (/[<>&\u2028\u2029]/.test(compact)) return html;
  return html.slice(0, from) + compact + html.slice(end);
}
