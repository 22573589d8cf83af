// POST /api/system/errors/{id}/resolve {resolution} (owners and admins): the error resolved with
// the notes (required), or 409 when it already is.
import { apiRoute, idParam, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { ResolveRequest, resolveSystemError } from '../features/system/system-monitoring.server.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.to('installation'),
    body: ResolveRequest,
    run: async ({ request, params, ctx }) => resolveSystemError(ctx, idParam(params.id), await readJson(request)),
  },
});
