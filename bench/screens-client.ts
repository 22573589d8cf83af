// The screens bench's HTTP client: one request at a time on a keep-alive connection, sent as a
// browser sends it (its Accept headers, compression accepted), timed until the last byte, with
// the body decompressed afterwards to measure the page itself.
import http from 'node:http';
import zlib from 'node:zlib';

const BROWSER = {
  'Accept-Encoding': 'gzip, deflate, br, zstd',
  'Accept-Language': 'en-GB,en;q=0.9',
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};
export const ACCEPT = {
  html: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  json: 'application/json',
} as const;

export interface Answer {
  status: number;
  /** Request start to last byte, in ms. */
  ms: number;
  headers: http.IncomingHttpHeaders;
  /** Bytes on the wire (compressed when the server compressed). */
  wireBytes: number;
  /** The body as the server rendered it (decompressed). */
  body: Buffer;
}

function decode(encoding: string | undefined, raw: Buffer): Buffer {
  switch (encoding) {
    case 'gzip':
      return zlib.gunzipSync(raw);
    case 'deflate':
      return zlib.inflateSync(raw);
    case 'br':
      return zlib.brotliDecompressSync(raw);
    case 'zstd':
      return zlib.zstdDecompressSync(raw);
    default:
      return raw;
  }
}

export class Client {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  readonly origin: string;
  constructor(origin: string) {
    this.origin = origin;
  }

  request(
    path: string,
    options: { cookie?: string; accept?: keyof typeof ACCEPT; method?: string; json?: unknown } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...BROWSER, Accept: ACCEPT[options.accept ?? 'html'] };
    if (options.cookie) headers.Cookie = options.cookie;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] = 'application/json';
      headers.Origin = this.origin;
    }
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        `${this.origin}${path}`,
        { method: options.method ?? 'GET', headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const ms = performance.now() - started;
            const raw = Buffer.concat(chunks);
            try {
              resolve({
                status: res.statusCode ?? 0,
                ms,
                headers: res.headers,
                wireBytes: raw.length,
                body: decode(res.headers['content-encoding'], raw),
              });
            } catch (error) {
              reject(error);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
