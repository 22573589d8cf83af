// GET /api/backups/{id}: one backup. DELETE /api/backups/{id}: the backup and its file (204);
// one still in progress answers 409.
import { apiRoute, idParam } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { deleteBackup, getBackup } from '../features/backups/backups.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('backups'), run: async ({ params, ctx }) => getBackup(ctx, idParam(params.id)) },
  DELETE: {
    allow: allow.to('backups', 'delete'),
    run: async ({ params, ctx, context }) => {
      await deleteBackup(ctx, context.config.backups, idParam(params.id));
      return new Response(null, { status: 204 });
    },
  },
});
