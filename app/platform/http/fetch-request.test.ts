// The request side of remixHandler over a real Express server on loopback: the Fetch request
// Remix sees has the URL the client asked for (a path that starts with // stays a path; the port
// a proxy names wins), every header (repeated ones kept), the body of a POST, and a signal that
// aborts when the client goes away before the answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fetchRequestOf } from './remix-express.ts';

let server: http.Server;
let port: number;
let started = false;
let aborted: Promise<boolean>;
beforeAll(async () => {
  const app = express();
  app.set('trust proxy', 'loopback');
  app.all('*', async (req, res) => {
    const request = fetchRequestOf(req, res);
    if (req.path === '/slow') {
      aborted = new Promise((resolve) => request.signal.addEventListener('abort', () => resolve(true)));
      started = true;
      return;
    }
    res.json({
      url: request.url,
      method: request.method,
      accept: request.headers.get('x-many'),
      body: request.body ? await request.text() : null,
    });
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});

function send(path: string, options: http.RequestOptions = {}, body?: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, ...options }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end(body);
  });
}

it('keeps the path, the host and port, repeated headers and the body', async () => {
  const got = await send(
    '//elsewhere.example/x?y=1',
    { method: 'POST', headers: { 'x-many': ['a', 'b'], 'content-type': 'text/plain' } },
    'hello',
  );
  expect(got).toEqual({
    url: `http://127.0.0.1:${port}//elsewhere.example/x?y=1`,
    method: 'POST',
    accept: 'a, b',
    body: 'hello',
  });
});

it('takes the host and port a trusted proxy names', async () => {
  const got = await send('/p', { headers: { 'X-Forwarded-Host': 'books.example:8443', 'X-Forwarded-Proto': 'https' } });
  expect(got.url).toBe('https://books.example:8443/p');
  expect(got.body).toBeNull();
});

it('aborts the request when the client leaves before the answer', async () => {
  const req = http.request({ host: '127.0.0.1', port, path: '/slow' });
  req.on('error', () => {});
  req.end();
  await expect.poll(() => started).toBe(true);
  req.destroy();
  await expect(aborted).resolves.toBe(true);
});
