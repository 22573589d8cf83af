// Responses whose whole body is a string the app made (pages, /api JSON). The server writes that
// string to the socket itself (app/http/remix-express.ts) instead of reading it back through the
// Response's body stream (a web ReadableStream: encode, enqueue, read, one write per chunk),
// ~4 % of a list page's CPU. The mark is a registered symbol, so the server's copy of this module
// and the build's copy agree. A Response that anything else rebuilds (Remix's HEAD answers, a
// header added to a frozen response) has no mark and is streamed as before.
const TEXT_BODY = Symbol.for('finhub.response.text-body');

type Marked = Response & { [TEXT_BODY]?: string };

/** A Response of `text`, marked so that the server may write the text directly. */
export function textResponse(text: string | null, init: ResponseInit): Response {
  const response = new Response(text, init) as Marked;
  if (text !== null) response[TEXT_BODY] = text;
  return response;
}

/** The text a response was made of, while its body is still unread; otherwise undefined. */
export function textBodyOf(response: Response): string | undefined {
  const text = (response as Marked)[TEXT_BODY];
  return text !== undefined && !response.bodyUsed ? text : undefined;
}
