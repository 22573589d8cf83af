// GET /api/admin/editor-activity-history (owners and admins): the editors' last 100 writes.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { editorActivityHistory } from '../services/editor-stats.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('admin'), run: async ({ ctx }) => editorActivityHistory(ctx) } });
