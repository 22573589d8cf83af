// The methods a declared resource's /api paths answer and the controls its list screen shows:
// a read-only resource (a log) reads only, before sign-in is even checked; writable ones keep
// GET/POST and GET/PUT/DELETE. No database: the routes answer 404/405 before they need one.
import type { AppLoadContext } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { budgetLog } from '../../../test/read-only-resource.ts';
import { PERMISSION_FLAGS, type PermissionFlags, type Role } from '../lib/permissions.ts';
import type { ResourceDef } from './define.ts';
import { budgets, departments } from '../../features/resources.ts';
import type { Db, ServiceContext } from '../context.ts';
import { allowedMethods, apiCollectionRoute, apiItemRoute } from '../api/resource-api.server.ts';
import { screenPermissions } from './resource-screen.server.ts';
import { noEngine } from '../../../test/context.ts';

const registry: readonly ResourceDef[] = [budgets, budgetLog];

function call(
  route: { loader: (args: never) => Promise<Response>; action: (args: never) => Promise<Response> },
  method: string,
  path: string,
  params: Record<string, string>,
) {
  const request = new Request(`http://localhost${path}`, {
    method,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }),
  });
  const args = { request, params, context: {} as AppLoadContext } as never;
  return method === 'GET' || method === 'HEAD' ? route.loader(args) : route.action(args);
}

describe('allowedMethods', () => {
  it('a read-only resource answers GET only; a writable one GET/POST and GET/PUT/DELETE', () => {
    expect(allowedMethods(budgetLog, 'collection')).toEqual(['GET']);
    expect(allowedMethods(budgetLog, 'item')).toEqual(['GET']);
    expect(allowedMethods(budgets, 'collection')).toEqual(['GET', 'POST']);
    expect(allowedMethods(departments, 'item')).toEqual(['GET', 'PUT', 'DELETE']);
  });
});

describe('resource /api routes', () => {
  const collection = apiCollectionRoute(registry);
  const item = apiItemRoute(registry);

  it('writes to a read-only resource are a 405 with Allow: GET, before sign-in', async () => {
    for (const [route, method, path, params] of [
      [collection, 'POST', '/api/budget-log', { resource: 'budget-log' }],
      [item, 'PUT', '/api/budget-log/1', { resource: 'budget-log', id: '1' }],
      [item, 'DELETE', '/api/budget-log/1', { resource: 'budget-log', id: '1' }],
      [item, 'PATCH', '/api/budget-log/1', { resource: 'budget-log', id: '1' }],
    ] as const) {
      const response = await call(route, method, path, params);
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get('Allow')).toBe('GET');
      expect(await response.json()).toEqual({ message: 'Method not allowed' });
    }
  });

  it('a writable resource keeps its methods; an unknown one is a 404', async () => {
    const put = await call(collection, 'PUT', '/api/budgets', { resource: 'budgets' });
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toBe('GET, POST');
    const patch = await call(item, 'PATCH', '/api/budgets/1', { resource: 'budgets', id: '1' });
    expect(patch.headers.get('Allow')).toBe('GET, PUT, DELETE');
    const unknown = await call(collection, 'POST', '/api/nope', { resource: 'nope' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Resource not found' });
  });
});

describe('screenPermissions', () => {
  const flags = Object.fromEntries(PERMISSION_FLAGS.map((flag) => [flag, false])) as PermissionFlags;
  const as = (role: Role): ServiceContext => ({
    db: {} as Db,
    meta: {},
    runtime: noEngine(),
    actor: {
      kind: 'user',
      user: {
        id: 1,
        role,
        companyId: null,
        username: role,
        email: `${role}@example.com`,
        fullName: null,
        position: null,
        phoneNumber: null,
        isActive: true,
        isTemporaryPassword: false,
        passwordChangeRequired: false,
        lastLoginAt: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        ...flags,
      },
    },
  });

  it('a read-only screen shows no Add, Edit or Delete, even to the owner', () => {
    expect(screenPermissions(as('owner'), budgetLog)).toEqual({ create: false, edit: false, delete: false });
    expect(screenPermissions(as('owner'), budgets)).toEqual({ create: true, edit: true, delete: true });
    expect(screenPermissions(as('editor'), budgets)).toEqual({ create: true, edit: true, delete: false });
  });
});
