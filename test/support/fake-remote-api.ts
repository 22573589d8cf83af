// A remote API on loopback for the integration sync tests: each request is recorded (method,
// path with query, headers, JSON body) and answered by the test's handler, which may delay,
// fail, redirect, page or drip its body. With `tls`, the same port answers both https (its
// `origin`) and plain http (`plainOrigin`), told apart by the first byte a client sends.
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';

export interface RemoteRequest {
  /** Came over TLS. */
  secure: boolean;
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
  /** The body sent a piece at a time after the headers, `everyMs` apart. */
  drip?: { pieces: string[]; everyMs: number };
}

export interface FakeRemoteApi {
  /** http://127.0.0.1:port (https:// with `tls`) */
  origin: string;
  /** http://127.0.0.1:port */
  plainOrigin: string;
  port: number;
  requests: RemoteRequest[];
  handler: (request: RemoteRequest) => RemoteReply | Promise<RemoteReply>;
  close(): Promise<void>;
}

export async function startFakeRemoteApi(
  handler: FakeRemoteApi['handler'] = () => ({ json: [] }),
  options: { tls?: { key: string; cert: string } } = {},
): Promise<FakeRemoteApi> {
  const api = { requests: [] as RemoteRequest[], handler } as FakeRemoteApi;
  const sockets = new Set<net.Socket>();
  const answer = (secure: boolean) => async (req: http.IncomingMessage, res: http.ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const request: RemoteRequest = {
      secure,
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', secure ? api.origin : api.plainOrigin),
      headers: req.headers,
      body: raw ? JSON.parse(raw) : null,
    };
    api.requests.push(request);
    const reply = await api.handler(request);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    if (reply.drip) {
      res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...reply.headers });
      for (const piece of reply.drip.pieces) {
        if (res.destroyed) return;
        res.write(piece);
        await new Promise((resolve) => setTimeout(resolve, reply.drip!.everyMs));
      }
      if (!res.destroyed) res.end();
      return;
    }
    const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...reply.headers }).end(body);
  };
  const plain = http.createServer(answer(false));
  const secure = options.tls
    ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, answer(true))
    : null;
  // With TLS: one port for both, a ClientHello (0x16) going to the https server.
  const server: net.Server = secure
    ? net.createServer((socket) => {
        socket.once('data', (first: Buffer) => {
          socket.pause();
          socket.unshift(first);
          (first[0] === 0x16 ? secure : plain).emit('connection', socket);
          process.nextTick(() => socket.resume());
        });
      })
    : plain;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.port = (server.address() as AddressInfo).port;
  api.plainOrigin = `http://127.0.0.1:${api.port}`;
  api.origin = secure ? `https://127.0.0.1:${api.port}` : api.plainOrigin;
  api.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return api;
}
