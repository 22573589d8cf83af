// A patch of @remix-run/router (patches/): json() keeps its text on the Response, and
// the static handler reads a loader's JSON Response back from that text (same JSON.parse, no
// bytes or stream), falling back to the body for any other Response.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { textBodyOf } from '../app/platform/http/text-body.ts';
import { JSON_MARKER, ROUTER_CJS, unpatchedFile } from './patches.ts';

const require = createRequire(import.meta.url);
const router = require(ROUTER_CJS) as typeof import('@remix-run/router');

it('is applied to the CommonJS build the server loads, and only there', () => {
  const text = fs.readFileSync(ROUTER_CJS, 'utf8');
  expect(text.split(JSON_MARKER)).toHaveLength(3);
  expect(unpatchedFile(ROUTER_CJS)).not.toContain(JSON_MARKER);
  expect(fs.readFileSync(ROUTER_CJS.replace(/router\.cjs\.js$/, 'router.js'), 'utf8')).not.toContain(JSON_MARKER);
  // Remix's json() is this one.
  const { json } = require('@remix-run/server-runtime') as typeof import('@remix-run/server-runtime');
  expect(textBodyOf(json({ a: 1 }))).toBe('{"a":1}');
});

it('keeps the text of json() while its body stays readable', async () => {
  const data = { name: 'Zürich \u2028', cents: 12345, nested: [null, true, 'a"b'] };
  const response = router.json(data, { status: 201, headers: { 'X-A': '1' } });
  expect(textBodyOf(response)).toBe(JSON.stringify(data));
  expect(response.status).toBe(201);
  expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
  expect(await response.json()).toEqual(data);
  expect(textBodyOf(response)).toBeUndefined();
});

it("reads a loader's json() from its text, and any other JSON Response from its body", async () => {
  const made: Response[] = [];
  const loaded = (data: unknown) => () => {
    const response = router.json(data);
    made.push(response);
    return response;
  };
  const handler = router.createStaticHandler([
    {
      id: 'root',
      path: '/',
      loader: loaded({ root: true, when: '2026-11-26' }),
      children: [
        { id: 'page', path: 'page', loader: loaded({ rows: [{ id: 1, amount: 10.5 }], total: 1 }) },
        {
          id: 'plain',
          path: 'plain',
          loader: () => new Response('{"plain":1}', { headers: { 'Content-Type': 'application/json' } }),
        },
        { id: 'null', path: 'null', loader: loaded(null) },
      ],
    },
  ]);
  const context = await handler.query(new Request('http://localhost/page'));
  if (context instanceof Response) throw context;
  expect(context.loaderData).toEqual({
    root: { root: true, when: '2026-11-26' },
    page: { rows: [{ id: 1, amount: 10.5 }], total: 1 },
  });
  expect(made.map((r) => r.bodyUsed)).toEqual([false, false]);

  const plain = await handler.query(new Request('http://localhost/plain'));
  if (plain instanceof Response) throw plain;
  expect(plain.loaderData.plain).toEqual({ plain: 1 });

  const empty = await handler.query(new Request('http://localhost/null'));
  if (empty instanceof Response) throw empty;
  expect(empty.loaderData.null).toBeNull();
});
