// GET /api/system/recovery-actions?limit&offset (owners and admins): newest first; X-Total-Count.
import { apiRoute, pagedAnswer } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { listRecoveryActions } from '../features/system/system-monitoring.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('installation'), run: pagedAnswer(listRecoveryActions) },
});
