// The /api collection and item routes of every declared resource: arrays with
// X-Total-Count and a Link to the next page, 201 on create, 204 on delete. A read-only
// resource (a log) answers GET only: its writes are a 405 naming the allowed methods.
// A resource answers at its key (/api/vult-card-types) or at the paths it declares, which
// may sit under a prefix (/api/vult/card-types: the `api.vult.$resource.ts` route group). The
// route module binding them hands over the declarations (the registry; tests pass their own).
import type { Action } from '../lib/permissions.ts';
import type { ResourceDef } from '../resources/define.ts';
import { invalid, notFound } from '../errors.ts';
import { apiListQuery } from '../resources/list-query.ts';
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from '../resources/resources.server.ts';
import {
  apiRoute,
  errorResponse,
  idParam,
  apiJson,
  pagedList,
  readJson,
  type ApiArgs,
  type AuthedApiArgs,
} from './api.server.ts';
import { allow, type Method, type RouteAccess } from '../screen/route-access.ts';
import { recordSchema } from '../resources/schema.ts';
import { resourceUpdateBody } from '../http/request-bodies.server.ts';

/** The /api paths of a resource's collection (without `/api/`), and whether each answers the latest row. */
export function apiPathsOf(def: ResourceDef): readonly { path: string; latest?: boolean }[] {
  return def.apiPaths ?? [{ path: def.key }];
}

/** The resources answering under a prefix ('' for /api/<segment>, 'vult' for /api/vult/<segment>), by segment. */
function underPrefix(
  defs: readonly ResourceDef[],
  prefix: string,
): { segment: string; def: ResourceDef; latest: boolean }[] {
  return defs.flatMap((def) =>
    apiPathsOf(def).flatMap(({ path, latest }) => {
      const slash = path.lastIndexOf('/');
      const [head, segment] = slash < 0 ? ['', path] : [path.slice(0, slash), path.slice(slash + 1)];
      return head === prefix ? [{ segment, def, latest: latest === true }] : [];
    }),
  );
}

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

/** The fields a write of the resource takes (apiRoute refuses any other): a record to create, a subset to change. */
function bodyOf(def: ResourceDef, method: Method) {
  if (method === 'POST') return recordSchema(def);
  if (method === 'PUT' || method === 'PATCH') return resourceUpdateBody(def);
  return undefined;
}
type Handlers = Record<Method, (def: ResourceDef, args: AuthedApiArgs, path: { latest: boolean }) => Promise<unknown>>;

/**
 * One apiRoute per declared resource behind the `$resource` segment, each answering only the
 * methods its declaration allows (a log: GET; a write to it is a 405 with Allow) under its
 * area's permission. An unknown resource is a 404 whoever asks, before sign-in is checked.
 */
function perResource(
  path: 'collection' | 'item',
  defs: readonly ResourceDef[],
  prefix: string,
  handlers: Partial<Handlers>,
) {
  const routes = new Map<string, Route>();
  for (const { segment, def, latest } of underPrefix(defs, prefix)) {
    const methods = Object.fromEntries(
      allowedMethods(def, path).map((method) => [
        method,
        {
          allow: allow.to(def.area, ACTION_OF[method]),
          body: bodyOf(def, method),
          run: (args: AuthedApiArgs) => handlers[method]!(def, args, { latest }),
        },
      ]),
    );
    routes.set(
      segment,
      apiRoute(methods, {
        params: { resource: segment },
        companyScoped: def.company !== 'none',
        groupWide: def.company === 'none',
        resource: def.key,
      }),
    );
  }
  const dispatch = (kind: 'loader' | 'action') => (args: ApiArgs) => {
    const route = args.params.resource === undefined ? undefined : routes.get(args.params.resource);
    return route ? route[kind](args as never) : Promise.resolve(errorResponse(notFound()));
  };
  const access: RouteAccess = [...routes.values()].flatMap((route) => route.access);
  return { loader: dispatch('loader'), action: dispatch('action'), access };
}

/** A PUT body may repeat the row's id; a different id is a 400, not a move. */
function withoutPathId(body: unknown, id: number): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, 'id')) return body;
  const { id: bodyId, ...rest } = body as Record<string, unknown>;
  if (bodyId !== id) throw invalid([{ field: 'id', message: 'id must match the id in the path' }]);
  return rest;
}

export function apiCollectionRoute(defs: readonly ResourceDef[], prefix = '') {
  return perResource('collection', defs, prefix, {
    GET: async (def, { request, ctx }, { latest }) => {
      const url = new URL(request.url);
      const query = apiListQuery(def, url.searchParams);
      if (latest) {
        // The newest row of the filtered list (its default order) as one object.
        const { rows } = await listRecords(ctx, def, { ...query, sort: null, dir: null, limit: 1, offset: 0 });
        if (!rows[0]) throw notFound();
        return rows[0];
      }
      const { rows, total } = await listRecords(ctx, def, query);
      return pagedList(url, rows, { rows: rows.length, total, limit: query.limit, offset: query.offset });
    },
    POST: async (def, { request, ctx }) => {
      const body = await readJson(request);
      return apiJson(await createRecord(ctx, def, body, { reason: reasonOf(request) }), { status: 201 });
    },
  });
}

export function apiItemRoute(defs: readonly ResourceDef[], prefix = '') {
  return perResource('item', defs, prefix, {
    GET: async (def, { params, ctx }) => getRecord(ctx, def, idParam(params.id)),
    PUT: async (def, { request, params, ctx }) => {
      const id = idParam(params.id);
      return updateRecord(ctx, def, id, withoutPathId(await readJson(request), id), { reason: reasonOf(request) });
    },
    DELETE: async (def, { request, params, ctx }) => {
      await deleteRecord(ctx, def, idParam(params.id), { reason: reasonOf(request) });
      return new Response(null, { status: 204 });
    },
  });
}
