// POST /api/api-integration-sync/{endpointId}: starts a sync run now (spec 3 §7) → 202 with its
// running log. The body's userId (the client sends 1) is ignored: the run is the caller's.
import { apiRoute, idParam, json } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { requestSync } from '../services/integration-sync.server.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.to('integrations', 'create'),
    run: async ({ params, context, ctx }) => json({ message: 'Sync started successfully', syncLog: await requestSync(ctx, context.config.integrations, idParam(params.id)) }, { status: 202 }),
  },
}, { groupWide: true });
