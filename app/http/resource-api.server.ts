// The /api collection and item routes of every declared resource (DESIGN §9): arrays with
// X-Total-Count and a Link to the next page, 201 on create, 204 on delete. A read-only
// resource (a log) answers GET only: its writes are a 405 naming the allowed methods.
import { findResource } from '../resources/index.ts';
import type { ResourceDef } from '../resources/define.ts';
import { notFound } from '../services/errors.ts';
import { apiListQuery } from '../services/list-query.ts';
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from '../services/resources.server.ts';
import { apiRoute, errorResponse, idParam, json, methodNotAllowed, pagingHeaders, readJson, type ApiArgs } from './api.server.ts';

/** Finds the declaration behind the path's `resource` segment (the registry; tests pass their own). */
type Lookup = (key: string | undefined) => ResourceDef | undefined;

/** The methods a resource's collection or item path answers. */
export function allowedMethods(def: ResourceDef, path: 'collection' | 'item'): string[] {
  if (def.readOnly) return ['GET'];
  return path === 'collection' ? ['GET', 'POST'] : ['GET', 'PUT', 'DELETE'];
}

function reasonOf(request: Request): string | null {
  return request.headers.get('X-Change-Reason')?.slice(0, 500) || null;
}

export function apiCollectionRoute(find: Lookup = findResource) {
  const resourceOf = resolver(find);
  return declaredMethodsOnly('collection', find, apiRoute({
    GET: async ({ request, params, ctx }) => {
      const def = resourceOf(params);
      const url = new URL(request.url);
      const query = apiListQuery(def, url.searchParams);
      const { rows, total } = await listRecords(ctx, def, query);
      const more = query.offset + rows.length < total;
      return json(rows, { headers: pagingHeaders(url, total, more ? { limit: query.limit, offset: query.offset + query.limit } : null) });
    },
    POST: async ({ request, params, ctx }) => {
      const def = resourceOf(params);
      const body = await readJson(request);
      return json(await createRecord(ctx, def, body, { reason: reasonOf(request) }), { status: 201 });
    },
  }));
}

export function apiItemRoute(find: Lookup = findResource) {
  const resourceOf = resolver(find);
  return declaredMethodsOnly('item', find, apiRoute({
    GET: async ({ params, ctx }) => getRecord(ctx, resourceOf(params), idParam(params.id)),
    PUT: async ({ request, params, ctx }) => {
      const def = resourceOf(params);
      const id = idParam(params.id);
      return updateRecord(ctx, def, id, await readJson(request), { reason: reasonOf(request) });
    },
    DELETE: async ({ request, params, ctx }) => {
      const def = resourceOf(params);
      await deleteRecord(ctx, def, idParam(params.id), { reason: reasonOf(request) });
      return new Response(null, { status: 204 });
    },
  }));
}

function resolver(find: Lookup) {
  return (params: Record<string, string | undefined>): ResourceDef => {
    const def = find(params.resource);
    if (!def) throw notFound();
    return def;
  };
}

type Handler = (args: ApiArgs) => Promise<Response>;

/**
 * Before sign-in is checked: an unknown /api path is a 404 whoever asks, and a method the
 * resource does not answer (a write to a log) is a 405 with Allow.
 */
function declaredMethodsOnly(path: 'collection' | 'item', find: Lookup, route: { loader: Handler; action: Handler }) {
  const guard = (handler: Handler): Handler => async (args) => {
    const def = find(args.params.resource);
    if (!def) return errorResponse(notFound());
    const allowed = allowedMethods(def, path);
    const method = args.request.method === 'HEAD' ? 'GET' : args.request.method;
    return allowed.includes(method) ? handler(args) : methodNotAllowed(allowed);
  };
  return { loader: guard(route.loader), action: guard(route.action) };
}
