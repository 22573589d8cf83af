// POST /api/backups/{id}/restore with options overwrite and skipAuditLogs (both off by default;
// at the top level or under `options`) → what was restored per table. All or nothing: a failure
// answers 409 with the reason and changes nothing. Installation-wide: owners and admins not
// limited to one company, and only owners for a backup holding user accounts (the service).
import { apiRoute, idParam, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { restoreBackup, RestoreBody, RestoreRequest } from '../features/backups/backup-restore.server.ts';
import { fieldErrorsFromZod, invalid } from '../platform/errors.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.to('installation', 'edit'),
    body: RestoreBody,
    run: async ({ request, params, ctx, context }) => {
      const id = idParam(params.id);
      const parsed = RestoreRequest.safeParse(await readJson(request));
      if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
      return restoreBackup(ctx, context.config.backups, { backupId: id }, parsed.data);
    },
  },
});
