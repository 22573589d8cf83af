// POST /api/backups/{id}/restore with options overwrite and skipAuditLogs (both off by default;
// at the top level or under `options`) → what was restored per table. All or nothing: a failure
// answers 409 with the reason and changes nothing.
import { z } from 'zod';
import { apiRoute, idParam, readJson } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { restoreBackup } from '../services/backup-restore.server.ts';
import { fieldErrorsFromZod, invalid } from '../services/errors.ts';

const Options = z.strictObject({ overwrite: z.boolean().optional(), skipAuditLogs: z.boolean().optional() });
/** `{ options: {…} }` (the specification's wording) is read as its options, so errors name the option. */
const Body = z.preprocess((body) => (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).join() === 'options' ? (body as { options: unknown }).options : body), Options);

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.to('backups', 'edit'),
    run: async ({ request, params, ctx, context }) => {
      const id = idParam(params.id);
      const parsed = Body.safeParse(await readJson(request));
      if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
      return restoreBackup(ctx, context.config.backups, { backupId: id }, parsed.data);
    },
  },
});
