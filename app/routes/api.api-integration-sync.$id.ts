// POST /api/api-integration-sync/{endpointId}: starts a sync run now → 202 with its
// running log. The body's userId (the client sends 1) is ignored: the run is the caller's.
import { apiRoute, idParam, apiJson, readJson } from '../platform/api/api.server.ts';
import { fieldErrorsFromZod, invalid } from '../platform/errors.ts';
import { allow } from '../platform/screen/route-access.ts';
import { requestSync, SyncRequest } from '../features/integrations/integration-sync.server.ts';
import type { SyncStarted } from '../features/integrations/answers.ts';

export const { loader, action, access } = apiRoute(
  {
    POST: {
      allow: allow.to('integrations', 'create'),
      body: SyncRequest,
      run: async ({ request, params, context, ctx }) => {
        const parsed = SyncRequest.safeParse(await readJson(request));
        if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
        return apiJson(
          {
            message: 'Sync started successfully',
            syncLog: await requestSync(ctx, context.config.integrations, idParam(params.id)),
          } satisfies SyncStarted,
          { status: 202 },
        );
      },
    },
  },
  { groupWide: true },
);
