// The /api error contract (DESIGN §9): JSON { message, errors? }, bad JSON is a 400, unknown
// errors are a 500 that never shows a stack, ids that are not positive integers are a 404.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DomainError, invalid } from '../services/errors.ts';
import { errorResponse, idParam, json, readJson } from './api.server.ts';

const post = (body: string) => new Request('http://localhost/api/x', { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });

afterEach(() => vi.restoreAllMocks());

describe('readJson', () => {
  it('parses JSON and treats an empty body as {}', async () => {
    expect(await readJson(post('{"a":1}'))).toEqual({ a: 1 });
    expect(await readJson(post(''))).toEqual({});
    expect(await readJson(post('   '))).toEqual({});
  });

  it('answers malformed JSON with a 400 Invalid data', async () => {
    for (const body of ['{bad', '{"a":', "{'a':1}", 'undefined']) {
      const error = await readJson(post(body)).catch((e: DomainError) => e) as DomainError;
      expect(error, body).toBeInstanceOf(DomainError);
      expect(error.status).toBe(400);
      expect(error.message).toBe('Invalid data');
      expect(error.errors).toEqual([{ field: 'body', message: expect.any(String) }]);
    }
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
    expect(await response.json()).toEqual({ message: 'Invalid data', errors: [{ field: 'email', message: 'Email is required' }] });

    const limited = errorResponse(new DomainError('rateLimited', undefined, { retryAfter: 42 }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('42');
    expect(await limited.json()).toEqual({ message: 'Too many requests' });

    const statuses = (['unauthenticated', 'forbidden', 'passwordChangeRequired', 'notFound', 'conflict'] as const).map((kind) => {
      const r = errorResponse(new DomainError(kind));
      return r.status;
    });
    expect(statuses).toEqual([401, 403, 403, 404, 409]);
    expect(await errorResponse(new DomainError('passwordChangeRequired')).json()).toEqual({ message: 'Password change required' });
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

  it('json() never lets a response be cached', () => {
    expect(json({ a: 1 }).headers.get('Cache-Control')).toBe('no-store');
  });
});
