// GET /api/openapi.json: the OpenAPI 3.1 document of every /api call, generated
// from the routes' own rules and zod schemas (app/http/openapi/), once per process.
import { apiRoute } from '../platform/api/api.server.ts';
import { openApiText } from '../features/api-docs/document.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { textResponse } from '../platform/http/text-body.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.signedIn,
    run: async ({ context }) =>
      textResponse(openApiText({ rateLimits: context.config.apiRateLimits }), {
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
      }),
  },
});
