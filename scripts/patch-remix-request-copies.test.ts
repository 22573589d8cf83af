// The third part of scripts/patch-remix-router.mjs: a loader or action gets the request itself
// when its URL has no `index` or `_data` parameter to drop, and a copy without them otherwise.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { REMIX_DATA_CJS, REQUEST_MARKER, unpatchedData } from './patch-remix-router.mjs';

const require = createRequire(import.meta.url);
type CallRouteLoader = (args: { loadContext: unknown; loader: (args: { request: Request }) => unknown; params: object; request: Request; routeId: string; singleFetch: boolean }) => Promise<unknown>;
type CallRouteAction = (args: { loadContext: unknown; action: (args: { request: Request }) => unknown; params: object; request: Request; routeId: string; singleFetch: boolean }) => Promise<unknown>;

it('is applied to the CommonJS build the server loads, and only there', () => {
  expect(require.resolve('@remix-run/server-runtime')).toBe(REMIX_DATA_CJS.replace(/data\.js$/, 'index.js'));
  const text = fs.readFileSync(REMIX_DATA_CJS, 'utf8');
  expect(text.split(REQUEST_MARKER)).toHaveLength(3);
  expect(unpatchedData(text)).not.toContain(REQUEST_MARKER);
  expect(fs.readFileSync(REMIX_DATA_CJS.replace(/dist\/data\.js$/, 'dist/esm/data.js'), 'utf8')).not.toContain(REQUEST_MARKER);
});

it('passes the request itself when there is nothing to strip, and a stripped copy otherwise', async () => {
  const { callRouteLoader, callRouteAction } = require(REMIX_DATA_CJS) as { callRouteLoader: CallRouteLoader; callRouteAction: CallRouteAction };
  const seen: Request[] = [];
  const loader = ({ request }: { request: Request }) => (seen.push(request), { ok: true });
  const call = (fn: CallRouteLoader, request: Request) => fn({ loadContext: {}, loader, params: {}, request, routeId: 'routes/x', singleFetch: false });
  const act = (request: Request) => callRouteAction({ loadContext: {}, action: loader, params: {}, request, routeId: 'routes/x', singleFetch: false });

  const plain = new Request('http://localhost/x?page=2&q=a%20b', { headers: { cookie: 'a=1' } });
  const answer = (await call(callRouteLoader, plain)) as Response;
  expect(seen[0]).toBe(plain);
  expect(await answer.json()).toEqual({ ok: true });

  for (const [url, expected] of [
    ['http://localhost/x?index&page=2', 'http://localhost/x?page=2'],
    ['http://localhost/x?_data=routes%2Fx&page=2', 'http://localhost/x?page=2'],
    ['http://localhost/x?index=&_data=routes%2Fx', 'http://localhost/x'],
  ] as const) {
    const request = new Request(url, { headers: { cookie: 'a=1' } });
    await call(callRouteLoader, request);
    const got = seen.at(-1)!;
    expect(got).not.toBe(request);
    expect(got.url).toBe(expected);
    expect(got.headers.get('cookie')).toBe('a=1');
  }

  // An action's request keeps its body either way.
  const post = new Request('http://localhost/x', { method: 'POST', body: new URLSearchParams({ intent: 'save' }) });
  await act(post);
  expect(seen.at(-1)).toBe(post);
  expect(await seen.at(-1)!.text()).toBe('intent=save');
  const indexPost = new Request('http://localhost/x?index', { method: 'POST', body: new URLSearchParams({ intent: 'save' }) });
  await act(indexPost);
  expect(seen.at(-1)).not.toBe(indexPost);
  expect(await seen.at(-1)!.text()).toBe('intent=save');
});
