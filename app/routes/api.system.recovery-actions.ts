// GET /api/system/recovery-actions?limit&offset (owners and admins): newest first; X-Total-Count.
import { apiRoute, pagedAnswer } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { listRecoveryActions } from '../services/system-monitoring.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('installation'), run: pagedAnswer(listRecoveryActions) } });
