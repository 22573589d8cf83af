// GET /api/backups/{id}/verify → { valid, reason? }: the file's SHA-256 against the stored one,
// then every row parsed and the counts checked.
import { apiRoute, idParam } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { verifyBackup } from '../features/backups/backups.server.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.to('backups'),
    run: async ({ params, ctx, context }) => verifyBackup(ctx, context.config.backups, idParam(params.id)),
  },
});
