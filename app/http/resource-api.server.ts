// The /api collection and item routes of every declared resource (DESIGN §9): arrays with
// X-Total-Count and a Link to the next page, 201 on create, 204 on delete.
import { findResource } from '../resources/index.ts';
import type { ResourceDef } from '../resources/define.ts';
import { notFound } from '../services/errors.ts';
import { apiListQuery } from '../services/list-query.ts';
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from '../services/resources.server.ts';
import { apiRoute, errorResponse, idParam, json, pagingHeaders, readJson } from './api.server.ts';

function resourceOf(params: Record<string, string | undefined>): ResourceDef {
  const def = findResource(params.resource);
  if (!def) throw notFound();
  return def;
}

function reasonOf(request: Request): string | null {
  return request.headers.get('X-Change-Reason')?.slice(0, 500) || null;
}

export function apiCollectionRoute() {
  return knownResourcesOnly(apiRoute({
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

export function apiItemRoute() {
  return knownResourcesOnly(apiRoute({
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

type Handler = (args: { params: Record<string, string | undefined> } & Record<string, any>) => Promise<Response>;

/** An unknown /api path is a 404 whoever asks, before sign-in is checked. */
function knownResourcesOnly(route: { loader: Handler; action: Handler }) {
  const guard = (handler: Handler): Handler => async (args) => (findResource(args.params.resource) ? handler(args) : errorResponse(notFound()));
  return { loader: guard(route.loader), action: guard(route.action) };
}
