// GET /api/system/errors?status=open|resolved|all&limit&offset (owners and admins): captured
// server errors and job failures, unresolved first; X-Total-Count.
import { apiRoute, pagedAnswer } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { listSystemErrors } from '../features/system/system-monitoring.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('installation'), run: pagedAnswer(listSystemErrors) },
});
