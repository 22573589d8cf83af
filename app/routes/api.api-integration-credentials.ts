// POST /api/api-integration-credentials {sourceId, credentialKey, credentialValue, description}
// → 201 without the value. Credentials are never listed or read back.
import { apiRoute, apiJson, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { addCredential, CredentialRequest } from '../features/integrations/integration-credentials.server.ts';

export const { loader, action, access } = apiRoute(
  {
    POST: {
      allow: allow.to('integrations', 'create'),
      body: CredentialRequest,
      run: async ({ request, context, ctx }) =>
        apiJson(await addCredential(ctx, context.config.integrations, await readJson(request)), { status: 201 }),
    },
  },
  { groupWide: true },
);
