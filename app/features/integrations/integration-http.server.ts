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
import { msg } from '../../platform/i18n/messages.ts';
import { phrased } from '../../platform/i18n/refusal-words.ts';

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

const OFF_ORIGIN = {
  request: msg("Request to {target} refused: only the source's origin {origin} is allowed"),
  redirect: msg("Redirect to {target} refused: only the source's origin {origin} is allowed"),
  next: msg("Next page link to {target} refused: only the source's origin {origin} is allowed"),
};

/** Refuses a URL that is not on `origin` (scheme, host and port compared). */
export function assertOnOrigin(url: string, origin: string, what: keyof typeof OFF_ORIGIN): void {
  const target = originOf(url);
  if (target !== origin)
    throw phrased((m) => new OriginRefused(m), OFF_ORIGIN[what], { target: target ?? url.slice(0, 200), origin });
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
    if (isOutboundTargetError(error))
      throw phrased((m) => new SyncHttpError(m), msg('{where}: {problem}'), { where: url, problem: error });
    throw error;
  }
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    let answered = false;
    const late = () =>
      phrased(
        (m) => new SyncHttpError(m),
        answered
          ? msg('{host} did not send its whole answer within {limit} ms')
          : msg('{host} did not answer within {limit} ms'),
        { host: target.url.host, limit },
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
              phrased((m) => new SyncHttpError(m), msg('The answer of {host} is larger than {bytes} bytes'), {
                host: target.url.host,
                bytes: options.settings.maxResponseBytes,
              }),
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
        response.on('error', (error) => fail(dropped(target.url.host, error)));
      },
    );
    request.on('timeout', () => fail(late()));
    request.on('error', (error) => fail(error instanceof SyncHttpError ? error : dropped(target.url.host, error)));
    request.end(body);
  });
}

/** A connection that broke: worth another try; what the system said is kept as it said it. */
const dropped = (host: string, error: Error) =>
  phrased((m) => new SyncHttpError(m, { transient: true }), msg('{where}: {problem}'), {
    where: host,
    problem: error.message,
  });

/** One request and its JSON answer, with the origin, redirect, retry and size rules above. */
export async function requestJson(url: string, options: RequestOptions): Promise<JsonResponse> {
  assertOnOrigin(url, options.origin, 'request');
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
          assertOnOrigin(next.href, options.origin, 'redirect');
          if (redirects >= MAX_REDIRECTS)
            throw phrased((m) => new SyncHttpError(m, { status: answer.status }), msg('More than {max} redirects'), {
              max: MAX_REDIRECTS,
            });
          current = next.href;
          continue;
        }
        if (answer.status >= 500)
          throw phrased(
            (m) => new SyncHttpError(m, { status: answer.status, transient: true }),
            msg('{host} answered {status}'),
            { host: new URL(current).host, status: String(answer.status) },
          );
        if (answer.status >= 400)
          throw phrased(
            (m) => new SyncHttpError(m, { status: answer.status }),
            answer.text ? msg('{host} answered {status}: {text}') : msg('{host} answered {status}'),
            { host: new URL(current).host, status: String(answer.status), text: answer.text.slice(0, 200) },
          );
        let body: unknown = null;
        if (answer.text.trim()) {
          try {
            body = JSON.parse(answer.text);
          } catch {
            throw phrased((m) => new SyncHttpError(m, { status: answer.status }), msg('{host} did not answer JSON'), {
              host: new URL(current).host,
            });
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
