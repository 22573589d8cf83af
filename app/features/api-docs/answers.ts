// What GET /api/openapi.json answers, as a zod schema: the document itself, described as far as a
// client relies on it (the OpenAPI 3.1 specification describes the rest). document.server.ts
// builds the document as this schema's output.
import { z } from 'zod';

/** GET /api/openapi.json: this document. */
export const OpenApiDocumentAnswer = z
  .looseObject({
    openapi: z.string().regex(/^3\.1\.\d+$/),
    info: z.looseObject({ title: z.string(), version: z.string().describe('The app’s version') }),
    paths: z.record(
      z.string().describe('A path template: /api/users/{id}'),
      z.record(z.string().describe('A lower-case method'), z.unknown()),
    ),
  })
  .describe('An OpenAPI 3.1 document: https://spec.openapis.org/oas/v3.1.0');
export type OpenApiDocument = z.output<typeof OpenApiDocumentAnswer>;
