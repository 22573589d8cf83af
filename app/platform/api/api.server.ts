// The /api JSON contract (docs/api.md) in one place: authentication, the password-change rule,
// rate limits, JSON bodies, method dispatch and the mapping of errors to status codes.
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from '@remix-run/node';
import { DomainError, isDomainError, type FieldError } from '../errors.ts';
import { MAX_ID } from '../lib/query.ts';
import type { ServiceContext } from '../context.ts';
import {
  passes,
  refusalStatus,
  type Method,
  type SignedInRule,
  type RouteAccess,
  type RouteVariant,
} from '../screen/route-access.ts';
import { getAuth, serviceContext, type Auth } from '../session/session.server.ts';
import { reportServerError } from '../http/error-report.server.ts';
import { textResponse } from '../http/text-body.ts';
import { unknownFields } from '../http/body-fields.server.ts';
import type { z } from 'zod';
import { countUserRequest } from '../http/rate-limit.server.ts';

export interface ApiArgs {
  request: Request;
  params: Record<string, string | undefined>;
  context: AppLoadContext;
}
export interface AuthedApiArgs extends ApiArgs {
  auth: Auth;
  ctx: ServiceContext;
}

/** An /api answer: JSON text, never cached (not Remix's `json`, which loaders use for typed data). */
export function apiJson(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  return textResponse(data === undefined ? null : JSON.stringify(data), { ...init, headers });
}

export function errorResponse(error: unknown): Response {
  if (isDomainError(error)) {
    const headers: Record<string, string> = {};
    if (error.retryAfter) headers['Retry-After'] = String(error.retryAfter);
    return apiJson(
      { message: error.message, ...(error.errors ? { errors: error.errors } : {}) },
      { status: error.status, headers },
    );
  }
  if (error instanceof Response) return error;
  // The body limit already answered 413 (app/platform/http/body-limit.ts, loaded by server.ts, not by
  // this build: so by name): nothing to log.
  if (error instanceof Error && error.name === 'PayloadTooLargeError')
    return apiJson({ message: 'Payload too large' }, { status: 413 });
  console.error('[api] unexpected error:', error);
  return apiJson({ message: 'Internal server error' }, { status: 500 });
}

/** 405 naming the methods the path answers. */
export function methodNotAllowed(allowed: readonly string[]): Response {
  return apiJson({ message: 'Method not allowed' }, { status: 405, headers: { Allow: allowed.join(', ') } });
}

/**
 * The headers of a paged list: X-Total-Count, and while rows remain a Link to the
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

/**
 * A page of a list as JSON with its paging headers: X-Total-Count, and a Link to the next page
 * (limit/offset; `extra` also set on it, e.g. `page: null` to drop a page parameter) while rows remain.
 */
export function pagedList(
  url: URL,
  body: unknown,
  page: { rows: number; total: number; limit: number; offset: number },
  extra: Record<string, string | number | null> = {},
): Response {
  const more = page.offset + page.rows < page.total;
  return apiJson(body, {
    headers: pagingHeaders(
      url,
      page.total,
      more ? { ...extra, limit: page.limit, offset: page.offset + page.limit } : null,
    ),
  });
}

/** A GET answering one page of a list service (given the query parameters) as an array with its paging headers. */
export function pagedAnswer(
  list: (
    ctx: ServiceContext,
    query: Record<string, string>,
  ) => Promise<{ rows: unknown[]; total: number; limit: number; offset: number }>,
) {
  return async ({ request, ctx }: AuthedApiArgs): Promise<Response> => {
    const url = new URL(request.url);
    const page = await list(ctx, Object.fromEntries(url.searchParams));
    return pagedList(url, page.rows, {
      rows: page.rows.length,
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    });
  };
}

/** The request body as JSON: an empty body is {}, malformed JSON is a 400, never a 500. */
async function parseJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('invalid', 'Invalid data', { errors: [{ field: 'body', message: 'Malformed JSON' }] });
  }
}

const bodies = new WeakMap<Request, unknown>();

/**
 * Reads a write's JSON body before its handler runs and refuses every field the method's
 * declared `body` schema does not have, at any depth: 400 `Invalid data` naming each, nothing
 * run. A method that declares no body takes none: only {} (or nothing) passes.
 */
async function acceptBody(request: Request, schema: z.ZodType | undefined): Promise<void> {
  const body = await parseJson(request);
  const unknown = unknownFields(body, schema);
  if (unknown.length) throw new DomainError('invalid', 'Invalid data', { errors: withOwnWords(unknown, body, schema) });
  if (!schema && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw new DomainError('invalid', 'Invalid data', {
      errors: [{ field: 'body', message: 'This request takes no body' }],
    });
  }
  bodies.set(request, body);
}

/** A schema that names unknown fields in words of its own ('Unknown permission: isAdmin') keeps them. */
function withOwnWords(errors: FieldError[], body: unknown, schema: z.ZodType | undefined): FieldError[] {
  if (!schema) return errors;
  const own = new Map<string, string>();
  try {
    const result = schema.safeParse(body);
    for (const issue of result.success ? [] : result.error.issues) {
      if (issue.code !== 'unrecognized_keys' || /^Unrecognized key/.test(issue.message)) continue;
      for (const key of issue.keys) own.set([...issue.path.map(String), key].join('.'), issue.message);
    }
  } catch {
    // a schema that cannot run here: the kit's words
  }
  return errors.map((error) => ({ ...error, message: own.get(error.field) ?? error.message }));
}

/**
 * A write's JSON body, as the kit read it and checked it against the method's `body` schema
 * (an empty body is {}). Only the handler of a write method of apiRoute has one.
 */
export async function readJson(request: Request): Promise<unknown> {
  if (!bodies.has(request))
    throw new Error('readJson: the body is read by apiRoute for its write methods, against their `body` schema');
  return bodies.get(request);
}

/** Parses a positive integer route parameter; anything else is a 404 (there is no such row). */
export function idParam(value: string | undefined): number {
  const id = Number(value);
  // Above MAX_ID no row can exist (PostgreSQL's integer ids would fail the query: a 500).
  if (!value || !/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1 || id > MAX_ID)
    throw new DomainError('notFound');
  return id;
}

type Handler<A> = (args: A) => Promise<Response | unknown>;
/** One method of a route: who may call it (checked before the handler runs) and the handler. */
type Rules = Partial<Record<Method, SignedInRule | { kind: 'public' }>>;
type MethodRoutes<R extends Rules> = {
  [M in keyof R]: {
    allow: R[M];
    run: Handler<R[M] extends { kind: 'public' } ? ApiArgs : AuthedApiArgs>;
    /** The JSON body a write takes (its fields); none declared: the write takes no body. */
    body?: z.ZodType;
    /** The write takes a file instead of JSON (an import's CSV): its handler reads the body. */
    file?: true;
  };
};

/**
 * Builds an /api route's loader and action from its methods. Each method declares who may call
 * it (`allow`, see route-access.ts); the declaration is enforced here and exported as the
 * route's `access`, from which the route manifest is built. Signed-in handlers get the user and
 * a service context; a user who must change their password may only use /api/auth/*.
 */
export function apiRoute<R extends Rules>(methods: MethodRoutes<R>, variant: Omit<RouteVariant, 'methods'> = {}) {
  const allowed = Object.keys(methods);
  async function handle({ request, params, context }: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> {
    try {
      const method = (request.method === 'HEAD' ? 'GET' : request.method) as Method;
      const route = (
        methods as Partial<
          Record<
            Method,
            { allow: SignedInRule | { kind: 'public' }; run: Handler<never>; body?: z.ZodType; file?: true }
          >
        >
      )[method];
      if (!route) return methodNotAllowed(allowed);
      let result: unknown;
      if (route.allow.kind === 'public') {
        if (method !== 'GET') await acceptBody(request, route.body);
        result = await (route.run as unknown as Handler<ApiArgs>)({ request, params, context });
      } else {
        const auth = await getAuth(request, context);
        if (!auth) throw new DomainError('unauthenticated');
        const path = new URL(request.url).pathname;
        if (auth.mustChangePassword && !path.startsWith('/api/auth/')) throw new DomainError('passwordChangeRequired');
        if (auth.mustSetUpTwoFactor && !path.startsWith('/api/auth/')) throw new DomainError('twoFactorSetupRequired');
        // Rate limits, shared with the screens (rate-limit.server.ts).
        await countUserRequest(context, auth.user.id);
        if (passes(route.allow, auth.user, params) === false) {
          // Installation-wide routes do not exist for an admin of one company (404).
          if (refusalStatus(route.allow, auth.user) === 404) throw new DomainError('notFound');
          throw new DomainError('forbidden', 'refusal' in route.allow ? route.allow.refusal : undefined);
        }
        if (method !== 'GET') {
          // An id no row can have is a 404 whatever the body says.
          if (params.id !== undefined) idParam(params.id);
          if (!route.file) await acceptBody(request, route.body);
        }
        result = await (route.run as unknown as Handler<AuthedApiArgs>)({
          request,
          params,
          context,
          auth,
          ctx: serviceContext(request, context, auth),
        });
      }
      return result instanceof Response ? result : apiJson(result);
    } catch (error) {
      const response = errorResponse(error);
      if (response.status === 500) await reportServerError(request, context, error);
      return response;
    }
  }
  const rules = Object.fromEntries(
    Object.entries(methods as Record<string, { allow: SignedInRule }>).map(([method, route]) => [method, route.allow]),
  );
  const access: RouteAccess = [{ ...variant, methods: rules }];
  return { loader: handle, action: handle, access };
}
