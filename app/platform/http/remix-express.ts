// Remix served by @remix-run/express, with one shortcut: a response of app-made text (pages and
// /api JSON, text-body.ts) is written as that string in one res.end (gzipped in one call when
// the client accepts it), where the adapter would read it back through the Response's web stream
// (encode, enqueue, read, write and flush per chunk: a measurable cost, bench/README.md). Everything else (CSV exports, backups, the AI chat's event stream,
// anything Remix rebuilt) goes through the adapter's own sendRemixResponse as before, and every
// request through its createRemixRequest.
import zlib from 'node:zlib';
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
// The adapter's package exports only createRequestHandler; its request and response conversions
// are in the module that defines it (the package has no exports map to forbid the path).
import { createRemixRequest, sendRemixResponse } from '@remix-run/express/dist/server.js';
import { createRequestHandler as createFetchHandler, type AppLoadContext, type ServerBuild } from '@remix-run/node';
import { textBodyOf } from './text-body.ts';

export function remixHandler({ build, getLoadContext }: { build: ServerBuild; getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext }) {
  const handle = createFetchHandler(build, build.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const response = await handle(createRemixRequest(req, res), getLoadContext(req, res));
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
  if (text.length < GZIP_FROM_CHARACTERS || req.method === 'HEAD' || !req.headers['accept-encoding'] || !req.acceptsEncodings('gzip')) return null;
  if (res.getHeader('Content-Encoding') || /\bno-transform\b/.test(String(res.getHeader('Cache-Control') ?? ''))) return null;
  if (!/^(text\/|application\/(json|javascript|xml))/.test(String(res.getHeader('Content-Type') ?? ''))) return null;
  return zlib.gzipSync(text);
}

export async function sendResponse(req: ExpressRequest, res: ExpressResponse, response: Response): Promise<void> {
  const text = textBodyOf(response);
  if (text === undefined) return sendRemixResponse(res, response);
  // What sendRemixResponse does before the body, then the text itself.
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
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
