// The patch of @remix-run/router (patches/, applied at install): applied to the
// server's build, same matches, and the route tree is read once, not on every match.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { MARKER, ROUTER_CJS, unpatchedFile } from './patches.ts';

const require = createRequire(import.meta.url);

it('is applied to the CommonJS router that the server loads, and only there', () => {
  expect(require.resolve('@remix-run/router')).toBe(ROUTER_CJS);
  expect(fs.readFileSync(ROUTER_CJS, 'utf8')).toContain(MARKER);
  expect(fs.readFileSync(ROUTER_CJS.replace('router.cjs.js', 'router.js'), 'utf8')).not.toContain(MARKER);
});

it('matches as before and reads a route tree once, however many times it matches', () => {
  const { matchRoutes } = require('@remix-run/router') as typeof import('@remix-run/router');
  const tree = () => [
    {
      id: 'root',
      path: '',
      children: [
        { id: 'index', index: true },
        { id: 'expenses', path: 'actual-expenses' },
        { id: 'expense', path: 'actual-expenses/:id' },
        { id: 'api', path: 'api/*' },
      ],
    },
  ];
  let reads = 0;
  const counted = new Proxy(tree(), {
    get: (target, key, receiver) => ((reads += 1), Reflect.get(target, key, receiver)),
  });
  const ids = (matches: { route: { id?: string } }[] | null) => matches?.map((m) => m.route.id);
  for (const [pathname, expected] of [
    ['/actual-expenses/7', ['root', 'expense']],
    ['/', ['root', 'index']],
    ['/api/x/y', ['root', 'api']],
  ] as const) {
    expect(ids(matchRoutes(counted, pathname))).toEqual(expected);
    expect(ids(matchRoutes(tree(), pathname))).toEqual(expected);
  }
  const afterFirstMatches = reads;
  expect(afterFirstMatches).toBeGreaterThan(0);
  for (let i = 0; i < 100; i++) matchRoutes(counted, '/actual-expenses');
  expect(reads).toBe(afterFirstMatches);
});

it('matches paths with params, optional segments, splats and case as the unpatched router does', () => {
  const patched = require('@remix-run/router') as typeof import('@remix-run/router');
  // The same file with the patch taken out, as the reference.
  const pristine = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'router-')), 'router.cjs');
  fs.writeFileSync(pristine, unpatchedFile(ROUTER_CJS));
  const original = require(pristine) as typeof import('@remix-run/router');
  expect(fs.readFileSync(pristine, 'utf8')).not.toContain(MARKER);
  const patterns = ['/a/:id', '/a/:id?/b', '/files/*', '/Case', '/x/y', '/'];
  const paths = ['/a/7', '/a/b', '/a/7/b', '/files/one/two', '/case', '/Case', '/x/y/', '/x', '/'];
  for (let round = 0; round < 3; round++) {
    for (const path of patterns) {
      for (const pathname of paths) {
        for (const pattern of [path, { path, caseSensitive: true }, { path, end: false }]) {
          expect(patched.matchPath(pattern, pathname), `${JSON.stringify(pattern)} ${pathname}`).toEqual(
            original.matchPath(pattern, pathname),
          );
        }
      }
    }
  }
});

it('finds the same route as the unpatched router when it tries only the branches whose first segment fits', () => {
  const patched = require('@remix-run/router') as typeof import('@remix-run/router');
  const pristine = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'router-')), 'router.cjs');
  fs.writeFileSync(pristine, unpatchedFile(ROUTER_CJS));
  const original = require(pristine) as typeof import('@remix-run/router');
  // Shaped like the app's tree: a root, pathless layouts, fixed first segments, params first,
  // optional and splat segments, a case-sensitive route and an index.
  const tree = () => [
    {
      id: 'root',
      path: '',
      children: [
        { id: 'index', index: true },
        {
          id: 'shell',
          children: [
            { id: 'expenses', path: 'actual-expenses' },
            { id: 'expense', path: 'actual-expenses/:id' },
            { id: 'Reports', path: 'Reports', caseSensitive: true },
            { id: 'lang', path: ':lang?/settings' },
            { id: 'docs', path: 'docs?/guide/:page' },
          ],
        },
        { id: 'api-expenses', path: 'api/actual-expenses' },
        { id: 'api-expense', path: 'api/actual-expenses/:id' },
        { id: 'api-any', path: 'api/*' },
        { id: 'company', path: ':company/overview' },
        { id: 'file', path: 'files/*' },
        { id: 'dotted', path: 'sitemap.xml' },
        { id: 'splat', path: '*' },
      ],
    },
  ];
  const paths = [
    '/',
    '//',
    '',
    '/actual-expenses',
    '/ACTUAL-EXPENSES/7',
    '/actual-expenses/7/',
    '//actual-expenses',
    '/reports',
    '/Reports',
    '/settings',
    '/fr/settings',
    '/api/actual-expenses',
    '/Api/Actual-Expenses/3',
    '/api/other/deep',
    '/api',
    '/acme/overview',
    '/files',
    '/files/a/b',
    '/sitemap.xml',
    '/sitemapxxml',
    '/nope',
    '/%61pi/actual-expenses',
    '/caf%C3%A9/overview',
    '/api/actual-expenses/3/extra',
    '/actual-expenses/7/x',
    '/fr/settings/x',
    '/api//actual-expenses',
    '/guide/intro',
    '/docs/guide/intro',
    '/DOCS/Guide/x/',
  ];
  const ids = (matches: { route: { id?: string }; params: unknown; pathname: string }[] | null) =>
    matches?.map((m) => [m.route.id, m.params, m.pathname]);
  const patchedTree = tree();
  const originalTree = tree();
  for (let round = 0; round < 2; round++) {
    for (const pathname of paths) {
      expect(ids(patched.matchRoutes(patchedTree, pathname)), pathname).toEqual(
        ids(original.matchRoutes(originalTree, pathname)),
      );
    }
  }
  // Every pathname found a route (the splat at least), so the comparison compared matches.
  expect(paths.filter((p) => !patched.matchRoutes(patchedTree, p))).toEqual([]);
});
