// GET /api/backups: every backup, newest first. POST /api/backups: name,
// description, tables, includeAuditLogs, includeVersions (none required) → 201 with the backup,
// in progress: the backup-create job writes the file and completes it.
import { apiRoute, apiJson, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { BackupRequest, listBackups, requestBackup } from '../features/backups/backups.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('backups'), run: async ({ ctx }) => listBackups(ctx) },
  POST: {
    allow: allow.to('backups', 'create'),
    body: BackupRequest,
    run: async ({ request, ctx, context }) =>
      apiJson(await requestBackup(ctx, context.config.backups, await readJson(request), 'manual'), { status: 201 }),
  },
});
