import { describe, expect, it } from 'vitest';
import { compactManifest } from './compact-manifest.ts';

const manifest = {
  entry: { module: '/build/entry.client-A.js', imports: ['/build/_shared/chunk-B.js'] },
  routes: { root: { id: 'root', path: '', hasLoader: true } },
  version: 'd3',
};
const page = (json: string) =>
  `<html><body><script>window.__remixContext = {"state":{}};</script><script type="module" async="">;\nimport * as route0 from "/build/root-C.js";\nwindow.__remixManifest = ${json};\nwindow.__remixRouteModules = {"root":route0};\n\nimport("/build/entry.client-A.js");</script></body></html>`;

describe('compactManifest', () => {
  it('rewrites the pretty-printed manifest without whitespace, the rest of the page unchanged', () => {
    const out = compactManifest(page(JSON.stringify(manifest, null, 2)));
    expect(out).toBe(page(JSON.stringify(manifest)));
  });

  it("leaves out the routes' false has… flags and keeps the true ones and everything else", () => {
    const routes = {
      root: {
        id: 'root',
        path: '',
        hasAction: false,
        hasLoader: true,
        hasClientAction: false,
        hasClientLoader: false,
        hasErrorBoundary: true,
        index: false,
      },
    };
    const out = compactManifest(page(JSON.stringify({ ...manifest, routes }, null, 2)));
    expect(out).toContain('"root":{"id":"root","path":"","hasLoader":true,"hasErrorBoundary":true,"index":false}');
  });

  it('leaves a page without a manifest, or with one it cannot read, as it is', () => {
    expect(compactManifest('<html><body>No scripts</body></html>')).toBe('<html><body>No scripts</body></html>');
    const broken = page('{ "entry": ');
    expect(compactManifest(broken)).toBe(broken);
  });

  it('leaves the manifest alone when compacting would unescape HTML characters', () => {
    // As Remix escapes them for the script element: \u003c for <, \u003e for >.
    const escaped = page(
      JSON.stringify({ routes: { x: { path: '</script>' } } }, null, 2)
        .replace(/</g, '\\u003c')
        .replace(/>/g, '\\u003e'),
    );
    expect(escaped).not.toContain('</script>",');
    expect(compactManifest(escaped)).toBe(escaped);
  });

  it('gives the same answer for a manifest it has compacted before, or left alone before', () => {
    const pretty = page(JSON.stringify({ ...manifest, version: 'again' }, null, 2));
    expect(compactManifest(pretty)).toBe(compactManifest(pretty));
    expect(compactManifest(pretty)).toBe(page(JSON.stringify({ ...manifest, version: 'again' })));
    const escaped = page(
      JSON.stringify({ routes: { y: { path: '<b>' } } }, null, 2)
        .replace(/</g, '\\u003c')
        .replace(/>/g, '\\u003e'),
    );
    expect(compactManifest(escaped)).toBe(escaped);
    expect(compactManifest(escaped)).toBe(escaped);
  });

  it('reads the manifest of the module script, not the same words in page data', () => {
    const html = page(JSON.stringify(manifest, null, 2)).replace(
      '{"state":{}}',
      '{"state":{"note":"window.__remixManifest = {"}}',
    );
    expect(compactManifest(html)).toContain(`window.__remixManifest = ${JSON.stringify(manifest)};`);
  });
});
