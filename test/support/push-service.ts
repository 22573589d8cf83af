// A stand-in for a browser vendor's push service (FCM, Mozilla autopush…): a real HTTP server on
// 127.0.0.1 (any free port) that records every request as it arrived and answers each endpoint
// path with a status the test chooses (201 Created, as push services do, unless told otherwise).
// It can take its time to answer (`delayMs`), and counts the requests it holds at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedPush {
  method: string;
  /** The request path (an endpoint's pathname). */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw (encrypted) body. */
  body: Buffer;
}

export interface PushService {
  /** http://127.0.0.1:<port>: endpoints are `${url}/<anything>`. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedPush[];
  /** Answer this path with this status from now on (default 201). */
  answer(path: string, status: number): void;
  /** Wait this long before answering each request, from now on. */
  delayMs: number;
  /** Requests received and not yet answered, now and at most so far. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** The requests received for one endpoint (a full URL or a path). */
  requestsTo(endpointOrPath: string): RecordedPush[];
  close(): Promise<void>;
}

export async function startPushService(
  options: { defaultStatus?: number; delayMs?: number } = {},
): Promise<PushService> {
  const requests: RecordedPush[] = [];
  const statuses = new Map<string, number>();
  const load = { delayMs: options.delayMs ?? 0, inFlight: 0, maxInFlight: 0 };
  const server = http.createServer((request, response) => {
    load.inFlight += 1;
    load.maxInFlight = Math.max(load.maxInFlight, load.inFlight);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
      requests.push({ method: request.method ?? '', path, headers: request.headers, body: Buffer.concat(chunks) });
      setTimeout(() => {
        load.inFlight -= 1;
        response.statusCode = statuses.get(path) ?? options.defaultStatus ?? 201;
        response.end();
      }, load.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const pathOf = (endpointOrPath: string) =>
    endpointOrPath.startsWith('/') ? endpointOrPath : new URL(endpointOrPath).pathname;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (path, status) => statuses.set(pathOf(path), status),
    get delayMs() {
      return load.delayMs;
    },
    set delayMs(ms: number) {
      load.delayMs = ms;
    },
    get inFlight() {
      return load.inFlight;
    },
    get maxInFlight() {
      return load.maxInFlight;
    },
    requestsTo: (endpointOrPath) => requests.filter((r) => r.path === pathOf(endpointOrPath)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
