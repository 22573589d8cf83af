// The /api error contract: JSON { message, errors? }, bad JSON is a 400, a field
// the route does not declare is a 400 before anything runs, unknown errors are a 500 that never
// shows a stack, ids that are not positive integers are a 404.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DomainError, invalid } from '../errors.ts';
import type { ActionFunctionArgs, AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import { apiRoute, errorResponse, idParam, apiJson, readJson } from './api.server.ts';
import { allow } from '../screen/route-access.ts';

const post = (body: string) =>
  new Request('http://localhost/api/x', { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });

afterEach(() => vi.restoreAllMocks());

/** A public POST route of the kit whose handler answers the body it reads (or says it ran). */
function echo(body?: z.ZodType) {
  let ran = 0;
  const route = apiRoute({
    POST: {
      allow: allow.public,
      ...(body ? { body } : {}),
      run: async ({ request }) => ({ got: await readJson(request), ran: ++ran }),
    },
  });
  const call = async (text: string) => {
    const response = await route.action({
      request: post(text),
      params: {},
      context: {} as AppLoadContext,
    } as ActionFunctionArgs);
    return { status: response.status, json: await response.json() };
  };
  return { call, ran: () => ran };
}

describe('JSON bodies of /api writes', () => {
  it('parses JSON for the handler and treats an empty body as {}', async () => {
    const route = echo(z.object({ a: z.number() }));
    expect(await route.call('{"a":1}')).toEqual({ status: 200, json: { got: { a: 1 }, ran: 1 } });
    expect((await route.call('')).json.got).toEqual({});
    expect((await route.call('   ')).json.got).toEqual({});
  });

  it('answers malformed JSON with a 400 Invalid data', async () => {
    const route = echo(z.object({ a: z.number() }));
    for (const body of ['{bad', '{"a":', "{'a':1}", 'undefined']) {
      const answer = await route.call(body);
      expect(answer.status, body).toBe(400);
      expect(answer.json).toEqual({
        message: 'Invalid data',
        errors: [{ field: 'body', message: expect.any(String) }],
      });
    }
    expect(route.ran()).toBe(0);
  });

  it('refuses every field the declared schema lacks, at any depth, before the handler runs: a plain z.object is closed too', async () => {
    const route = echo(
      z.object({
        name: z.string(),
        keys: z.object({ auth: z.string() }),
        items: z.array(z.object({ id: z.number() })).nullish(),
        context: z.record(z.string(), z.unknown()).nullish(),
        either: z.union([z.object({ a: z.number() }), z.strictObject({ b: z.number() })]).optional(),
        loose: z.looseObject({ x: z.number() }).optional(),
      }),
    );
    const refused = async (body: unknown, errors: { field: string; message: string }[]) => {
      const answer = await route.call(JSON.stringify(body));
      expect(answer, JSON.stringify(body)).toEqual({ status: 400, json: { message: 'Invalid data', errors } });
    };
    await refused({ name: 'n', keys: { auth: 'a' }, isActive: false, expires_at: '2030-01-01' }, [
      { field: 'isActive', message: 'Unknown field' },
      { field: 'expires_at', message: 'Unknown field' },
    ]);
    await refused({ name: 'n', keys: { auth: 'a', p256dh: 'k' } }, [
      { field: 'keys.p256dh', message: 'Unknown field' },
    ]);
    await refused({ name: 'n', keys: {}, items: [{ id: 1 }, { id: 2, extra: 1 }] }, [
      { field: 'items.1.extra', message: 'Unknown field' },
    ]);
    await refused({ name: 'n', keys: {}, either: { c: 1 } }, [{ field: 'either.c', message: 'Unknown field' }]);
    // An own "__proto__" key, as JSON.parse makes it, is a field like any other.
    const answer = await route.call('{"name":"n","keys":{},"__proto__":{"polluted":1}}');
    expect(answer).toEqual({
      status: 400,
      json: { message: 'Invalid data', errors: [{ field: '__proto__', message: 'Unknown field' }] },
    });
    expect(route.ran()).toBe(0);
    // What the schema declares passes (types are the handler's schema's business), records and loose objects take any key.
    const accepted = await route.call(
      JSON.stringify({
        name: 7,
        keys: { auth: 'a' },
        items: [{ id: 'x' }],
        context: { companyId: 1, anything: true },
        either: { b: 1 },
        loose: { x: 1, y: 2 },
      }),
    );
    expect(accepted.status).toBe(200);
    expect(route.ran()).toBe(1);
    // Not an object where one is expected: left to the handler's schema.
    expect((await route.call('[1, 2]')).status).toBe(200);
  });

  it('a method that declares no body takes none: {} or nothing passes, any field or other value is a 400', async () => {
    const route = echo();
    expect((await route.call('')).status).toBe(200);
    expect((await route.call('{}')).status).toBe(200);
    expect(await route.call('{"userId":1}')).toEqual({
      status: 400,
      json: { message: 'Invalid data', errors: [{ field: 'userId', message: 'Unknown field' }] },
    });
    for (const body of ['null', '[]', '"x"', '42', 'true'])
      expect(await route.call(body), body).toEqual({
        status: 400,
        json: { message: 'Invalid data', errors: [{ field: 'body', message: 'This request takes no body' }] },
      });
    expect(route.ran()).toBe(2);
  });

  it('only the kit reads a body: readJson elsewhere is a programming error', async () => {
    await expect(readJson(post('{"a":1}'))).rejects.toThrow(/apiRoute/);
  });
});

describe('idParam', () => {
  it('accepts positive integers only; anything else is a 404', () => {
    expect(idParam('1')).toBe(1);
    expect(idParam('42')).toBe(42);
    for (const value of [undefined, '', '0', '-1', '1.5', 'abc', '1e3', ' 1', '0x10', '99999999999999999999']) {
      const error = (() => {
        try {
          idParam(value);
        } catch (e) {
          return e as DomainError;
        }
        return null;
      })();
      expect(error?.status, String(value)).toBe(404);
    }
  });
});

describe('errorResponse', () => {
  it('maps domain errors to their status and JSON body', async () => {
    const response = errorResponse(invalid([{ field: 'email', message: 'Email is required' }]));
    expect(response.status).toBe(400);
    expect(response.headers.get('Content-Type')).toContain('application/json');
    expect(await response.json()).toEqual({
      message: 'Invalid data',
      errors: [{ field: 'email', message: 'Email is required' }],
    });

    const limited = errorResponse(new DomainError('rateLimited', undefined, { retryAfter: 42 }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('42');
    expect(await limited.json()).toEqual({ message: 'Too many requests' });

    const statuses = (['unauthenticated', 'forbidden', 'passwordChangeRequired', 'notFound', 'conflict'] as const).map(
      (kind) => {
        const r = errorResponse(new DomainError(kind));
        return r.status;
      },
    );
    expect(statuses).toEqual([401, 403, 403, 404, 409]);
    expect(await errorResponse(new DomainError('passwordChangeRequired')).json()).toEqual({
      message: 'Password change required',
    });
    expect(await errorResponse(new DomainError('unauthenticated')).json()).toEqual({ message: 'Not authenticated' });
    expect(await errorResponse(new DomainError('notFound')).json()).toEqual({ message: 'Resource not found' });
  });

  it('answers anything else with a bare 500', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = errorResponse(new Error('relation "users" does not exist at /srv/app/db.ts:12'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ message: 'Internal server error' });
    expect(text).not.toContain('relation');
    expect(text).not.toContain('.ts');
  });

  it('apiJson() never lets a response be cached', () => {
    expect(apiJson({ a: 1 }).headers.get('Cache-Control')).toBe('no-store');
  });
});
