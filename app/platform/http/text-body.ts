// Responses whose whole body is a string the app made (pages, /api JSON). The server writes that
// string to the socket itself (app/platform/http/remix-express.ts) instead of reading it back through the
// Response's body stream (a web ReadableStream: encode, enqueue, read, one write per chunk),
// a measurable cost (bench/README.md). The mark is a registered symbol, so the server's copy of this module
// and the build's copy agree. A Response that anything else rebuilds (Remix's HEAD answers, a
// header added to a frozen response) has no mark and is streamed as before.
const TEXT_BODY = Symbol.for('finhub.response.text-body');

type Marked = Response & { [TEXT_BODY]?: string };

const encoder = new TextEncoder();

/**
 * `text` as a body stream that encodes it only if something reads it. A Response made of the
 * string itself encodes it to bytes at once (a measurable cost on a list page), and the server,
 * which writes the text, never reads them.
 */
function lazyTextBody(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        controller.enqueue(encoder.encode(text));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A Response of `text`, marked so that the server may write the text directly. */
export function textResponse(text: string | null, init: ResponseInit): Response {
  if (text === null) return new Response(null, init);
  const response = new Response(lazyTextBody(text), init) as Marked;
  // What a Response made of the string would say when nobody named a type.
  if (!response.headers.has('Content-Type')) response.headers.set('Content-Type', 'text/plain;charset=UTF-8');
  response[TEXT_BODY] = text;
  return response;
}

/** The text a response was made of, while its body is still unread; otherwise undefined. */
export function textBodyOf(response: Response): string | undefined {
  const text = (response as Marked)[TEXT_BODY];
  return text !== undefined && !response.bodyUsed ? text : undefined;
}
