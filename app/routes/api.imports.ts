// POST /api/imports: a CSV file (text/csv body, or the "file" part of a multipart form) with
// `table`, `mode`, `dryRun`, `updateById`, `allowDuplicate` → 202 with the import; GET
// /api/imports/{id} follows it (docs/api.md, "Imports").
import { apiJson, apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { receiveApiImport } from '../features/imports/imports-api.server.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.signedIn,
    file: true,
    run: async ({ request, ctx, context }) => {
      const answer = await receiveApiImport(ctx, context.config, request);
      return apiJson(answer, { status: 202, headers: { Location: `/api/imports/${answer.id}` } });
    },
  },
});
