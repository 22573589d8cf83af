// The response side of remixHandler over a real Express server on loopback: app-made text is
// written as it is (status, headers and cookies kept; gzipped in one piece when the client takes
// gzip, otherwise left to the compression middleware), and every other body still streams
// through the adapter.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { sendResponse } from './remix-express.ts';
import { textBodyOf, textResponse } from './text-body.ts';

const PAGE = `<!DOCTYPE html><p>${'Zürich — 10 € '.repeat(400)}</p>`;
const responses: Record<string, () => Response> = {
  '/text': () => {
    const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8', 'X-Extra': 'yes' });
    headers.append('Set-Cookie', 'a=1; Path=/');
    headers.append('Set-Cookie', 'b=2; Path=/');
    return textResponse(PAGE, { status: 201, statusText: 'Made', headers });
  },
  '/stream': () =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('one,'));
          controller.enqueue(new TextEncoder().encode('two'));
          controller.close();
        },
      }),
      { headers: { 'Content-Type': 'text/csv' } },
    ),
  // Remix rebuilding a response (to add a header to a frozen one) drops the mark: streamed.
  '/rebuilt': () => {
    const response = textResponse('rebuilt text', { headers: { 'Content-Type': 'text/plain' } });
    return new Response(response.body, response);
  },
  '/empty': () => textResponse(null, { status: 204 }),
  '/small': () => textResponse('<p>short</p>', { headers: { 'Content-Type': 'text/html' } }),
  '/no-transform': () =>
    textResponse(PAGE, { headers: { 'Content-Type': 'text/html', 'Cache-Control': 'private, no-transform' } }),
  '/json': () =>
    textResponse(JSON.stringify({ rows: PAGE }), { headers: { 'Content-Type': 'application/json; charset=utf-8' } }),
};

let server: http.Server;
let origin: string;
beforeAll(async () => {
  const app = express();
  app.use(compression());
  app.get('*', (req, res, next) => {
    sendResponse(req, res, responses[req.path]()).catch(next);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; message: string; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${origin}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            message: res.statusMessage!,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

it('marks only text it made, and only while the body is unread', async () => {
  expect(textBodyOf(textResponse('x', {}))).toBe('x');
  expect(textBodyOf(new Response('x'))).toBeUndefined();
  const read = textResponse('x', {});
  await read.text();
  expect(textBodyOf(read)).toBeUndefined();
});

it('reads app-made text back whole, encoding it only when something reads the body', async () => {
  const encode = vi.spyOn(TextEncoder.prototype, 'encode');
  try {
    const response = textResponse(PAGE, { status: 201 });
    expect(encode).not.toHaveBeenCalled();
    expect(response.headers.get('Content-Type')).toBe('text/plain;charset=UTF-8');
    expect(await response.clone().text()).toBe(PAGE);
    expect(encode).toHaveBeenCalled();
    expect(await response.text()).toBe(PAGE);
    expect(await textResponse('', {}).text()).toBe('');
    expect(textResponse(null, { status: 204 }).body).toBeNull();
  } finally {
    encode.mockRestore();
  }
});

it('writes app-made text with its status, headers and every cookie', async () => {
  const answer = await get('/text');
  expect(answer.status).toBe(201);
  expect(answer.message).toBe('Made');
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(answer.headers['x-extra']).toBe('yes');
  expect(answer.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  expect(answer.body.toString('utf8')).toBe(PAGE);
});

it('gzips it in one piece when the client accepts gzip', async () => {
  for (const path of ['/text', '/json']) {
    const answer = await get(path, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(answer.headers['content-encoding'], path).toBe('gzip');
    // Whole, with its length: not the middleware's chunked stream.
    expect(answer.headers['content-length'], path).toBe(String(answer.body.length));
    expect(answer.headers['transfer-encoding'], path).toBeUndefined();
    expect(answer.headers.vary, path).toContain('Accept-Encoding');
    expect(zlib.gunzipSync(answer.body).toString('utf8'), path).toBe(
      responses[path]().headers.get('Content-Type')!.startsWith('text') ? PAGE : JSON.stringify({ rows: PAGE }),
    );
  }
  expect((await get('/text', { 'Accept-Encoding': 'gzip' })).headers['set-cookie']).toEqual([
    'a=1; Path=/',
    'b=2; Path=/',
  ]);
});

it('leaves other encodings, small bodies and no-transform to the middleware', async () => {
  const brotli = await get('/text', { 'Accept-Encoding': 'gzip;q=0, br' });
  expect(brotli.headers['content-encoding']).toBe('br');
  expect(zlib.brotliDecompressSync(brotli.body).toString('utf8')).toBe(PAGE);
  const plain = await get('/text');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.toString('utf8')).toBe(PAGE);
  const small = await get('/small', { 'Accept-Encoding': 'gzip' });
  expect(small.headers['content-encoding']).toBeUndefined();
  expect(small.body.toString('utf8')).toBe('<p>short</p>');
  const kept = await get('/no-transform', { 'Accept-Encoding': 'gzip' });
  expect(kept.headers['content-encoding']).toBeUndefined();
  expect(kept.body.toString('utf8')).toBe(PAGE);
});

it('streams every other body', async () => {
  expect((await get('/stream')).body.toString()).toBe('one,two');
  expect((await get('/stream', { 'Accept-Encoding': 'gzip' })).body.length).toBeGreaterThan(0);
  expect((await get('/rebuilt')).body.toString()).toBe('rebuilt text');
  const empty = await get('/empty');
  expect(empty.status).toBe(204);
  expect(empty.body.length).toBe(0);
});
