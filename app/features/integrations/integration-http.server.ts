// The sync engine's HTTP client (docs/security.md): http(s) only, public addresses only unless
// ALLOW_PRIVATE_TARGETS=1 (checked before any connection, and the connection pinned to the
// checked addresses), every request and redirect on the source's origin (scheme, host and port:
// the origin its credentials were entered for), a deadline for the whole answer (headers and
// body), a cap on the response size, and a 5xx or a dropped connection retried twice. Errors
// read well in a sync log.
import http from 'node:http';
import https from 'node:https';
import type { IntegrationSettings } from '../../platform/config.server.ts';
import {
  assertPublicTarget,
  isOutboundTargetError,
  type HostResolver,
} from '../../platform/http/outbound-target.server.ts';

export class SyncHttpError extends Error {
  readonly status: number | null;
  /** Worth another try (a 5xx, a dropped connection). */
  readonly transient: boolean;
  constructor(message: string, options: { status?: number | null; transient?: boolean } = {}) {
    super(message);
    this.name = 'SyncHttpError';
    this.status = options.status ?? null;
    this.transient = options.transient ?? false;
  }
}

/** A request, redirect or page link off the source's origin: refused before anything is sent. */
export class OriginRefused extends SyncHttpError {
  constructor(message: string) {
    super(message);
    this.name = 'OriginRefused';
  }
}

/** scheme://host[:port] of an http(s) URL (default ports left out, as browsers compare them); null otherwise. */
export function originOf(text: string | null | undefined): string | null {
  if (typeof text !== 'string' || !URL.canParse(text.trim())) return null;
  const url = new URL(text.trim());
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
}

/** Refuses a URL that is not on `origin` (scheme, host and port compared). */
export function assertOnOrigin(url: string, origin: string, what: string): void {
  const target = originOf(url);
  if (target !== origin)
    throw new OriginRefused(
      `${what} ${target ?? url.slice(0, 200)} refused: only the source's origin ${origin} is allowed`,
    );
}

export interface JsonResponse {
  status: number;
  body: unknown;
  /** Wall time of the successful attempt. */
  ms: number;
  /** Attempts made (retries included). */
  attempts: number;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  settings: Pick<IntegrationSettings, 'allowPrivateTargets' | 'timeoutMs' | 'maxResponseBytes'>;
  /** The only origin requests may go to: the source's, which its credentials are bound to. */
  origin: string;
  resolve?: HostResolver;
  /** Certificates trusted besides the system's (tests' own authority). */
  ca?: string;
  /** Pause before retry n (1-based); tests shorten it. */
  retryDelayMs?: (attempt: number) => number;
}

const MAX_REDIRECTS = 3;
const RETRIES = 2;

async function once(
  url: string,
  options: RequestOptions,
): Promise<{ status: number; location: string | null; text: string }> {
  const limit = options.settings.timeoutMs;
  const deadline = Date.now() + limit;
  let target;
  try {
    target = await assertPublicTarget(url, {
      allowPrivate: options.settings.allowPrivateTargets,
      resolve: options.resolve,
    });
  } catch (error) {
    if (isOutboundTargetError(error)) throw new SyncHttpError(`${url}: ${error.message}`);
    throw error;
  }
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    let answered = false;
    const late = () =>
      new SyncHttpError(
        answered
          ? `${target.url.host} did not send its whole answer within ${limit.toLocaleString('en-US')} ms`
          : `${target.url.host} did not answer within ${limit.toLocaleString('en-US')} ms`,
      );
    // The idle timeout below restarts with every byte: a remote sending a byte now and then
    // would hold the run for ever without this one for the whole exchange.
    const timer = setTimeout(() => fail(late()), Math.max(0, deadline - Date.now()));
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(error);
    };
    const request = client.request(
      target.url,
      {
        method: options.method ?? 'GET',
        lookup: target.lookup,
        ...(options.ca ? { ca: options.ca } : {}),
        headers: {
          Accept: 'application/json',
          'User-Agent': 'GroupFinanceHub-Sync/1.0',
          ...(body === undefined
            ? {}
            : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }),
          ...options.headers,
        },
        timeout: limit,
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.settings.maxResponseBytes) {
            response.destroy();
            fail(
              new SyncHttpError(
                `The answer of ${target.url.host} is larger than ${options.settings.maxResponseBytes.toLocaleString('en-US')} bytes`,
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location ?? null,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
        response.on('error', (error) =>
          fail(new SyncHttpError(`${target.url.host}: ${error.message}`, { transient: true })),
        );
      },
    );
    request.on('timeout', () => fail(late()));
    request.on('error', (error) =>
      fail(
        error instanceof SyncHttpError
          ? error
          : new SyncHttpError(`${target.url.host}: ${error.message}`, { transient: true }),
      ),
    );
    request.end(body);
  });
}

/** One request and its JSON answer, with the origin, redirect, retry and size rules above. */
export async function requestJson(url: string, options: RequestOptions): Promise<JsonResponse> {
  assertOnOrigin(url, options.origin, 'Request to');
  let attempts = 0;
  for (;;) {
    attempts++;
    const started = performance.now();
    try {
      let current = url;
      for (let redirects = 0; ; redirects++) {
        const answer = await once(current, options);
        if (answer.status >= 300 && answer.status < 400 && answer.location) {
          const next = new URL(answer.location, current);
          assertOnOrigin(next.href, options.origin, 'Redirect to');
          if (redirects >= MAX_REDIRECTS)
            throw new SyncHttpError(`More than ${MAX_REDIRECTS} redirects`, { status: answer.status });
          current = next.href;
          continue;
        }
        if (answer.status >= 500)
          throw new SyncHttpError(`${new URL(current).host} answered ${answer.status}`, {
            status: answer.status,
            transient: true,
          });
        if (answer.status >= 400)
          throw new SyncHttpError(
            `${new URL(current).host} answered ${answer.status}${answer.text ? `: ${answer.text.slice(0, 200)}` : ''}`,
            { status: answer.status },
          );
        let body: unknown = null;
        if (answer.text.trim()) {
          try {
            body = JSON.parse(answer.text);
          } catch {
            throw new SyncHttpError(`${new URL(current).host} did not answer JSON`, { status: answer.status });
          }
        }
        return { status: answer.status, body, ms: Math.round(performance.now() - started), attempts };
      }
    } catch (error) {
      if (!(error instanceof SyncHttpError) || !error.transient || attempts > RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs?.(attempts) ?? 500 * attempts));
    }
  }
}
