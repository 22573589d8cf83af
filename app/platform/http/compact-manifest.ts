// Remix writes the page's route manifest into the module script pretty-printed (a 2-space
// indented JSON.stringify), and every page carries it: a quarter of it is whitespace. The page is
// rendered to one string anyway (entry.server), so the manifest is rewritten compact. Anything
// unexpected (another shape, characters Remix escapes for HTML) leaves the page as it was.
// A route's `has…: false` flags are left out too: the client only tests them for truth
// (@remix-run/react's routes.js, components.js, links.js), and four per route add up.
const START = 'window.__remixManifest = ';
const END = ';\nwindow.__remixRouteModules';

const withoutFalseFlags = (key: string, value: unknown) =>
  value === false && /^has[A-Z]/.test(key) ? undefined : value;

/** Pages of the same routes carry the same manifest: each one is compacted once (at most 500 kept). */
const compacted = new Map<string, string | null>();

function compact(pretty: string): string | null {
  let out = compacted.get(pretty);
  if (out !== undefined) return out;
  try {
    out = JSON.stringify(JSON.parse(pretty, withoutFalseFlags));
  } catch {
    out = null;
  }
  if (out !== null && /[<>&\u2028\u2029]/.test(out)) out = null;
  if (compacted.size < 500) compacted.set(pretty, out);
  return out;
}

export function compactManifest(html: string): string {
  const start = html.lastIndexOf(START);
  if (start < 0) return html;
  const from = start + START.length;
  const end = html.indexOf(END, from);
  if (end < 0) return html;
  const manifest = compact(html.slice(from, end));
  return manifest === null ? html : html.slice(0, from) + manifest + html.slice(end);
}
