// GET /api/imports/{id}: one of the caller's imports, where it stands and what it found.
import { apiRoute, idParam } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { findImport, importAnswer } from '../features/imports/imports.server.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.signedIn,
    run: async ({ params, ctx }) => importAnswer(await findImport(ctx, idParam(params.id))),
  },
});
