// The /api JSON contract (DESIGN §9) in one place: authentication, the password-change rule,
// rate limits, JSON bodies, method dispatch and the mapping of errors to status codes.
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from '@remix-run/node';
import { DomainError, isDomainError } from '../services/errors.ts';
import { MAX_ID } from '../lib/query.ts';
import type { ServiceContext } from '../services/context.ts';
import { consumeRateLimit, createMemoryRateLimiter, rateLimitWindows, type RateLimiter } from '../services/throttle.server.ts';
import { getAuth, serviceContext, type Auth } from './session.server.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiArgs {
  request: Request;
  params: Record<string, string | undefined>;
  context: AppLoadContext;
}
export interface AuthedApiArgs extends ApiArgs {
  auth: Auth;
  ctx: ServiceContext;
}

export function json(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  return new Response(data === undefined ? null : JSON.stringify(data), { ...init, headers });
}

export function errorResponse(error: unknown): Response {
  if (isDomainError(error)) {
    const headers: Record<string, string> = {};
    if (error.retryAfter) headers['Retry-After'] = String(error.retryAfter);
    return json({ message: error.message, ...(error.errors ? { errors: error.errors } : {}) }, { status: error.status, headers });
  }
  if (error instanceof Response) return error;
  console.error('[api] unexpected error:', error);
  return json({ message: 'Internal server error' }, { status: 500 });
}

/** 405 naming the methods the path answers (DESIGN §9). */
export function methodNotAllowed(allowed: readonly string[]): Response {
  return json({ message: 'Method not allowed' }, { status: 405, headers: { Allow: allowed.join(', ') } });
}

/**
 * The headers of a paged list (DESIGN §9): X-Total-Count, and while rows remain a Link to the
 * next page: this URL with the `next` parameters set (null removes one).
 */
export function pagingHeaders(url: URL, total: number, next: Record<string, string | number | null> | null): Headers {
  const headers = new Headers({ 'X-Total-Count': String(total) });
  if (next) {
    const target = new URL(url);
    for (const [key, value] of Object.entries(next)) {
      if (value === null) target.searchParams.delete(key);
      else target.searchParams.set(key, String(value));
    }
    headers.set('Link', `<${target.pathname}${target.search}>; rel="next"`);
  }
  return headers;
}

/** The request body as JSON: an empty body is {}, malformed JSON is a 400, never a 500. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('invalid', 'Invalid data', { errors: [{ field: 'body', message: 'Malformed JSON' }] });
  }
}

/** Parses a positive integer route parameter; anything else is a 404 (there is no such row). */
export function idParam(value: string | undefined): number {
  const id = Number(value);
  // Above MAX_ID no row can exist (PostgreSQL's integer ids would fail the query: a 500).
  if (!value || !/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1 || id > MAX_ID) throw new DomainError('notFound');
  return id;
}

const memoryLimiters = new WeakMap<object, RateLimiter>();

/** DESIGN §9 rate limits: in the database on PostgreSQL, in memory in embedded SQLite mode. */
async function countRequest(context: AppLoadContext, key: string): Promise<void> {
  const windows = rateLimitWindows(context.config.apiRateLimits);
  if (context.dialect === 'postgres') return consumeRateLimit(context.db, key, windows);
  let limiter = memoryLimiters.get(context.config);
  if (!limiter) {
    limiter = createMemoryRateLimiter(windows);
    memoryLimiters.set(context.config, limiter);
  }
  limiter.consume(key);
}

interface RouteOptions {
  /** 'public': no session needed. 'user': signed in (default). */
  access?: 'public' | 'user';
}

type Handlers<A> = Partial<Record<Method, (args: A) => Promise<Response | unknown>>>;

/**
 * Builds a resource route's loader and action. Signed-in handlers get the user and a service
 * context; a user who must change their password may only use /api/auth/*.
 */
export function apiRoute(handlers: Handlers<AuthedApiArgs>, options?: { access?: 'user' }): { loader: any; action: any };
export function apiRoute(handlers: Handlers<ApiArgs>, options: { access: 'public' }): { loader: any; action: any };
export function apiRoute(handlers: Handlers<any>, options: RouteOptions = {}) {
  const allowed = Object.keys(handlers);
  async function handle({ request, params, context }: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> {
    try {
      const method = (request.method === 'HEAD' ? 'GET' : request.method) as Method;
      const handler = handlers[method];
      if (!handler) return methodNotAllowed(allowed);
      let args: ApiArgs | AuthedApiArgs = { request, params, context };
      if (options.access !== 'public') {
        const auth = await getAuth(request, context);
        if (!auth) throw new DomainError('unauthenticated');
        const path = new URL(request.url).pathname;
        if (auth.mustChangePassword && !path.startsWith('/api/auth/')) throw new DomainError('passwordChangeRequired');
        await countRequest(context, `user:${auth.user.id}`);
        args = { ...args, auth, ctx: serviceContext(request, context, auth) };
      }
      const result = await handler(args);
      return result instanceof Response ? result : json(result);
    } catch (error) {
      return errorResponse(error);
    }
  }
  return { loader: handle, action: handle };
}
