// A remote API on loopback for the integration sync tests: each request is recorded (method,
// path with query, headers, JSON body) and answered by the test's handler, which may delay,
// fail, redirect or page.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RemoteRequest {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface RemoteReply {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface FakeRemoteApi {
  /** http://127.0.0.1:port */
  origin: string;
  port: number;
  requests: RemoteRequest[];
  handler: (request: RemoteRequest) => RemoteReply | Promise<RemoteReply>;
  close(): Promise<void>;
}

export async function startFakeRemoteApi(handler: FakeRemoteApi['handler'] = () => ({ json: [] })): Promise<FakeRemoteApi> {
  const api = { requests: [] as RemoteRequest[], handler } as FakeRemoteApi;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const request: RemoteRequest = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', api.origin), headers: req.headers, body: raw ? JSON.parse(raw) : null };
    api.requests.push(request);
    const reply = await api.handler(request);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...reply.headers }).end(body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.port = (server.address() as AddressInfo).port;
  api.origin = `http://127.0.0.1:${api.port}`;
  api.close = () => new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  });
  return api;
}
