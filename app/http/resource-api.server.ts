// The /api collection and item routes of every declared resource (DESIGN §9): arrays with
// X-Total-Count and a Link to the next page, 201 on create, 204 on delete. A read-only
// resource (a log) answers GET only: its writes are a 405 naming the allowed methods.
import type { Action } from '../lib/permissions.ts';
import { RESOURCE_LIST } from '../resources/index.ts';
import type { ResourceDef } from '../resources/define.ts';
import { notFound } from '../services/errors.ts';
import { apiListQuery } from '../services/list-query.ts';
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from '../services/resources.server.ts';
import { apiRoute, errorResponse, idParam, json, pagingHeaders, readJson, type ApiArgs, type AuthedApiArgs } from './api.server.ts';
import { allow, type Method, type RouteAccess } from './route-access.ts';

/** Finds the declaration behind the path's `resource` segment (the registry; tests pass their own). */
type Lookup = (key: string | undefined) => ResourceDef | undefined;

/** The methods a resource's collection or item path answers. */
export function allowedMethods(def: ResourceDef, path: 'collection' | 'item'): Method[] {
  if (def.readOnly) return ['GET'];
  return path === 'collection' ? ['GET', 'POST'] : ['GET', 'PUT', 'DELETE'];
}

const ACTION_OF: Record<Method, Action> = { GET: 'read', POST: 'create', PUT: 'edit', PATCH: 'edit', DELETE: 'delete' };

function reasonOf(request: Request): string | null {
  return request.headers.get('X-Change-Reason')?.slice(0, 500) || null;
}

type Route = ReturnType<typeof apiRoute>;
type Handlers = Record<Method, (def: ResourceDef, args: AuthedApiArgs) => Promise<unknown>>;

/**
 * One apiRoute per declared resource behind the `$resource` segment, each answering only the
 * methods its declaration allows (a log: GET; a write to it is a 405 with Allow) under its
 * area's permission. An unknown resource is a 404 whoever asks, before sign-in is checked.
 */
function perResource(path: 'collection' | 'item', defs: readonly ResourceDef[], handlers: Partial<Handlers>) {
  const routes = new Map<string, Route>();
  for (const def of defs) {
    const methods = Object.fromEntries(
      allowedMethods(def, path).map((method) => [method, { allow: allow.to(def.area, ACTION_OF[method]), run: (args: AuthedApiArgs) => handlers[method]!(def, args) }]),
    );
    routes.set(def.key, apiRoute(methods, { params: { resource: def.key }, companyScoped: def.company !== 'none', resource: def.key }));
  }
  const dispatch = (kind: 'loader' | 'action') => (args: ApiArgs) => {
    const route = args.params.resource === undefined ? undefined : routes.get(args.params.resource);
    return route ? route[kind](args as never) : Promise.resolve(errorResponse(notFound()));
  };
  const access: RouteAccess = [...routes.values()].flatMap((route) => route.access);
  return { loader: dispatch('loader'), action: dispatch('action'), access };
}

export function apiCollectionRoute(defs: readonly ResourceDef[] = RESOURCE_LIST) {
  return perResource('collection', defs, {
    GET: async (def, { request, ctx }) => {
      const url = new URL(request.url);
      const query = apiListQuery(def, url.searchParams);
      const { rows, total } = await listRecords(ctx, def, query);
      const more = query.offset + rows.length < total;
      return json(rows, { headers: pagingHeaders(url, total, more ? { limit: query.limit, offset: query.offset + query.limit } : null) });
    },
    POST: async (def, { request, ctx }) => {
      const body = await readJson(request);
      return json(await createRecord(ctx, def, body, { reason: reasonOf(request) }), { status: 201 });
    },
  });
}

export function apiItemRoute(defs: readonly ResourceDef[] = RESOURCE_LIST) {
  return perResource('item', defs, {
    GET: async (def, { params, ctx }) => getRecord(ctx, def, idParam(params.id)),
    PUT: async (def, { request, params, ctx }) => updateRecord(ctx, def, idParam(params.id), await readJson(request), { reason: reasonOf(request) }),
    DELETE: async (def, { request, params, ctx }) => {
      await deleteRecord(ctx, def, idParam(params.id), { reason: reasonOf(request) });
      return new Response(null, { status: 204 });
    },
  });
}
