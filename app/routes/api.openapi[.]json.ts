// GET /api/openapi.json: the OpenAPI 3.1 document of every /api call (DESIGN §9), generated
// from the routes' own rules and zod schemas (app/http/openapi/).
import { apiRoute } from '../http/api.server.ts';
import { openApiDocument } from '../http/openapi/document.server.ts';
import { allow } from '../http/route-access.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.signedIn, run: async ({ context }) => openApiDocument({ rateLimits: context.config.apiRateLimits }) } });
