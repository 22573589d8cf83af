// Remix served by @remix-run/express, with one shortcut: a response of app-made text (pages and
// /api JSON, text-body.ts) is written as that string in one res.end, where the adapter would read
// it back through the Response's web stream (encode, enqueue, read, write and flush per chunk:
// ~4 % of a list page's CPU). Everything else (CSV exports, backups, the AI chat's event stream,
// anything Remix rebuilt) goes through the adapter's own sendRemixResponse as before, and every
// request through its createRemixRequest.
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
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

export async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  const text = textBodyOf(response);
  if (text === undefined) return sendRemixResponse(res, response);
  // What sendRemixResponse does before the body, then the text itself.
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  // The body stream is never read: cancel it, so nothing is left waiting on it.
  response.body?.cancel().catch(() => {});
  res.end(text);
}
