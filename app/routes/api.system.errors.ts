// GET /api/system/errors?status=open|resolved|all&limit&offset (owners and admins): captured
// server errors and job failures, unresolved first; X-Total-Count.
import { apiRoute, pagedAnswer } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { listSystemErrors } from '../services/system-monitoring.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('installation'), run: pagedAnswer(listSystemErrors) } });
