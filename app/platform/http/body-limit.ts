// Request bodies above a documented limit (MAX_BODY_BYTES, 1 MB; docs/security.md) answer 413 before
// they are read. Placed before the Remix handler in server.ts.
//
// - A declared Content-Length above the limit: 413 at once, nothing read, connection closed.
// - A body without Content-Length (chunked): bytes are counted as they arrive; the moment the
//   count passes the limit, whoever is reading the body (Remix's request stream) gets an error,
//   never a truncated body that looks complete; so no action runs on it. The 413 goes out, and
//   the connection is closed so the rest is never read.
// Within the limit nothing changes: the body still streams to Remix as it arrives.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export class PayloadTooLargeError extends Error {
  readonly status = 413;
  constructor() {
    super('Payload too large');
    this.name = 'PayloadTooLargeError';
  }
}

/** Set on `res.locals` once a body was refused: the error handler then keeps quiet. */
export const BODY_LIMIT_EXCEEDED = 'bodyLimitExceeded';

export function bodyLimit(limit: number | ((req: Request) => number)): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // A route taking files (an import's upload) has a limit of its own.
    const maxBytes = typeof limit === 'number' ? limit : limit(req);
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) return refuse(req, res);

    let seen = 0;
    const count = (chunk: Buffer | string) => {
      seen += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
      if (seen <= maxBytes) return;
      req.off('data', count);
      req.on('data', discard);
      // Our listener runs before the body reader's (it was added first), so the reader has
      // seen at most `maxBytes` bytes and now fails instead of waiting for (or seeing) the end.
      if (req.listenerCount('error') > 0) req.emit('error', new PayloadTooLargeError());
      refuse(req, res);
    };
    req.on('data', count);
    next();
  };
}

function discard() {}

function refuse(req: Request, res: Response) {
  res.locals[BODY_LIMIT_EXCEEDED] = true;
  if (res.headersSent) {
    req.destroy();
    return;
  }
  // Closing the connection is what stops the rest of the body from being read.
  res.setHeader('Connection', 'close');
  res.once('finish', () => req.socket?.destroySoon?.());
  if (req.path.startsWith('/api/') || req.path === '/api') res.status(413).json({ message: 'Payload too large' });
  else res.status(413).type('text/plain').send('Payload too large');
}
