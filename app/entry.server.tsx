// Server rendering. No route defers data, so the whole page is rendered in one pass with
// renderToString: less work per page than renderToPipeableStream (no stream, no abort timer,
// no bot check), and a finance page is of no use half-rendered.
import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { renderToString } from 'react-dom/server';
import { NonceContext } from './ui/nonce.tsx';
import { compactManifest } from './platform/http/compact-manifest.ts';
import { reportServerError } from './platform/http/error-report.server.ts';
import { notedRetryAfter } from './platform/http/rate-limit.server.ts';
import { textResponse } from './platform/http/text-body.ts';

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.nonce;
  const html = renderToString(
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>,
  );
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  // Pages carry the signed-in user's data: no browser or proxy cache may keep them (the public
  // landing and login pages are cheap to render, so they are not worth a distinction).
  responseHeaders.set('Cache-Control', 'no-store');
  setRetryAfter(responseStatusCode, responseHeaders, loadContext);
  return textResponse(`<!DOCTYPE html>${compactManifest(html)}`, {
    headers: responseHeaders,
    status: responseStatusCode,
  });
}

/** A page or data answering 429 (the per-user limits, work already running) says when to retry. */
function setRetryAfter(status: number, headers: Headers, context: AppLoadContext): void {
  const seconds = notedRetryAfter(context);
  if (status === 429 && seconds && !headers.has('Retry-After')) headers.set('Retry-After', String(seconds));
}

/** Loader and action data fetched by the client: the same rule as pages. */
export function handleDataRequest(response: Response, { context }: { context: AppLoadContext }) {
  response.headers.set('Cache-Control', 'no-store');
  setRetryAfter(response.status, response.headers, context);
  return response;
}

/** An unexpected error in a loader or action: logged, and recorded for Error Tracking. */
export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  console.error('[remix]', error);
  void reportServerError(request, context, error);
}
