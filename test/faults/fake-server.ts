// Loopback stand-ins for the world outside the topology (a remote API, a push service), and
// waiting for a condition with a deadline.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A loopback HTTP server answering every request after `delayMs`, recording what came. */
export interface FakeServer {
  origin: string;
  requests: { path: string; headers: http.IncomingHttpHeaders; at: number }[];
  close(): Promise<void>;
}

export async function fakeServer(delayMs: number, answer: (path: string) => { status: number; json?: unknown }) {
  const requests: FakeServer['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers, at: Date.now() });
    req.resume();
    setTimeout(() => {
      const { status, json } = answer(req.url ?? '');
      res.writeHead(status, json === undefined ? {} : { 'Content-Type': 'application/json' });
      res.end(json === undefined ? undefined : JSON.stringify(json));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies FakeServer;
}

export async function waitUntil<T>(what: string, check: () => Promise<T | null | undefined | false>, seconds: number) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const value = await check();
    if (value) return value;
    await sleep(100);
  }
  throw new Error(`timed out after ${seconds} s waiting for ${what}`);
}
