// POST /api/backups/scheduled (no body): a scheduled backup now (every table, audit logs and
// versions), written by the backup-create job; the newest BACKUP_KEEP scheduled ones are kept.
import { apiRoute, apiJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { requestBackup } from '../features/backups/backups.server.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.to('installation', 'create'),
    run: async ({ ctx, context }) =>
      apiJson(await requestBackup(ctx, context.config.backups, {}, 'scheduled'), { status: 201 }),
  },
});
