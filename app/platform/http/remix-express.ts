// Remix on Express. The request and response conversions are ours, built on @remix-run/node's
// public stream helpers: @remix-run/express exports only its whole handler, and one shortcut
// needs the halves. A response of app-made text (pages and /api JSON, text-body.ts) is written
// as that string in one res.end (gzipped in one call when the client accepts it), where a
// stream would be read back chunk by chunk (encode, enqueue, read, write and flush per chunk: a
// measurable cost, bench/README.md). Everything else (CSV exports, backups, the AI chat's event
// stream, anything Remix rebuilt) is streamed.
import zlib from 'node:zlib';
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import {
  createReadableStreamFromReadable,
  createRequestHandler as createFetchHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from '@remix-run/node';
import { textBodyOf } from './text-body.ts';

export function remixHandler({
  build,
  getLoadContext,
}: {
  build: ServerBuild;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}) {
  const handle = createFetchHandler(build, build.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const response = await handle(fetchRequestOf(req, res), getLoadContext(req, res));
      await sendResponse(req, res, response);
    } catch (error) {
      next(error);
    }
  };
}

/** Below this many characters text goes out as it is (the compression middleware's threshold). */
const GZIP_FROM_CHARACTERS = 1024;

/**
 * App-made text gzipped in one synchronous call, when the client accepts gzip: the compression
 * middleware would stream it through zlib on libuv's thread pool (a hand-off and a callback per
 * chunk), which costs a compressed list page noticeably more CPU (bench/README.md). gzip rather
 * than brotli, which browsers also accept: brotli at the middleware's quality 4 is slower for
 * only slightly fewer bytes. Null: leave it to the middleware
 * (a HEAD, a small or already encoded body, no-transform, a type not worth compressing, a
 * client that takes no gzip).
 */
function gzippedText(req: ExpressRequest, res: ExpressResponse, text: string): Buffer | null {
  if (
    text.length < GZIP_FROM_CHARACTERS ||
    req.method === 'HEAD' ||
    !req.headers['accept-encoding'] ||
    !req.acceptsEncodings('gzip')
  )
    return null;
  if (res.getHeader('Content-Encoding') || /\bno-transform\b/.test(String(res.getHeader('Cache-Control') ?? '')))
    return null;
  if (!/^(text\/|application\/(json|javascript|xml))/.test(String(res.getHeader('Content-Type') ?? ''))) return null;
  return zlib.gzipSync(text);
}

export async function sendResponse(req: ExpressRequest, res: ExpressResponse, response: Response): Promise<void> {
  const text = textBodyOf(response);
  writeHead(res, response);
  if (text === undefined) return streamBody(res, response);
  // The body stream is never read: cancel it, so nothing is left waiting on it.
  response.body?.cancel().catch(() => {});
  const gzipped = gzippedText(req, res, text);
  if (gzipped) {
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', gzipped.length);
    res.vary('Accept-Encoding');
    res.end(gzipped);
    return;
  }
  res.end(text);
}

/**
 * The Fetch request Remix handles: the URL as the client asked for it (the host's port as the
 * proxy or the client named it; req.hostname honours "trust proxy"), every header, the body as a
 * stream, and a signal aborted when the client goes away before the answer is finished.
 */
export function fetchRequestOf(req: ExpressRequest, res: ExpressResponse): Request {
  // Joined as text: a path starting with // must stay a path, never become another host.
  const url = new URL(`${req.protocol}://${hostWithPort(req)}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const aborter = new AbortController();
  let answered = false;
  res.once('finish', () => (answered = true));
  res.once('close', () => {
    if (!answered) aborter.abort();
  });
  const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: aborter.signal };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

function hostWithPort(req: ExpressRequest): string {
  const portOf = (host: string | undefined) => {
    const port = Number.parseInt(host?.split(':')[1] ?? '', 10);
    return Number.isSafeInteger(port) ? port : undefined;
  };
  const port = portOf(req.get('X-Forwarded-Host')) ?? portOf(req.get('host'));
  return port ? `${req.hostname}:${port}` : req.hostname;
}

function writeHead(res: ExpressResponse, response: Response): void {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
}

async function streamBody(res: ExpressResponse, response: Response): Promise<void> {
  // An event stream's headers go out at once, before its first event.
  if (/text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
