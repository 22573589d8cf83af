// The API contract as a test checks it: every answer of an /api call against the OpenAPI
// document's schema for its operation and status (Ajv, JSON Schema 2020-12). The document is
// the one the app serves, built from the routes' zod schemas, so an answer that drifts from its
// schema (or a schema that drifts from the code) fails the test that made the call.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../app/features/api-docs/document.server.ts';

type Json = Record<string, any>;

const DOCUMENT_ID = 'https://finhub.invalid/openapi.json';

/** JSON Pointer escaping of one path segment. */
const pointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export class ApiContract {
  readonly document: Json;
  readonly #ajv: Ajv2020;
  readonly #validators = new Map<string, ValidateFunction | null>();
  /** Operations an answer was checked for ('GET /api/budgets 200'). */
  readonly checked = new Set<string>();

  constructor() {
    this.document = openApiDocument({ rateLimits: { perMinute: 100, perHour: 1000 } });
    // Not strict: the document carries OpenAPI's own keywords (example, description…) beside the schemas.
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(this.#ajv);
    this.#ajv.addSchema({ ...structuredClone(this.document), $id: DOCUMENT_ID });
  }

  /**
   * The document's path for a manifest path: '/api/users/:id' → '/api/users/{id}', and a path
   * whose parameters the manifest filled in ('/api/export/users/csv') → the template it fills
   * ('/api/export/{table}/csv'), the one with the fewest parameters when several match.
   */
  documentPath(path: string): string {
    const named = path.replace(/:(\w+)/g, '{$1}');
    if (this.document.paths?.[named]) return named;
    const segments = named.split('/');
    const candidates = Object.keys(this.document.paths ?? {}).filter((template) => {
      const parts = template.split('/');
      return (
        parts.length === segments.length &&
        parts.every((part, i) => part === segments[i] || (part.startsWith('{') && part.endsWith('}')))
      );
    });
    const params = (template: string) => template.split('{').length;
    return candidates.sort((a, b) => params(a) - params(b))[0] ?? named;
  }

  #validator(method: string, path: string, status: number): ValidateFunction | null {
    const key = `${method} ${path} ${status}`;
    if (this.#validators.has(key)) return this.#validators.get(key)!;
    const operation = this.document.paths?.[path]?.[method.toLowerCase()];
    let response = operation?.responses?.[String(status)];
    if (response?.$ref) response = this.document.components.responses[response.$ref.split('/').pop()];
    const json = response?.content?.['application/json'];
    let validate: ValidateFunction | null = null;
    if (json?.schema) {
      const at = operation.responses[String(status)].$ref
        ? `#/components/responses/${operation.responses[String(status)].$ref.split('/').pop()}`
        : `#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${status}`;
      validate = this.#ajv.compile({ $ref: `${DOCUMENT_ID}${at}/content/application~1json/schema` });
    }
    this.#validators.set(key, validate);
    return validate;
  }

  /** Operations of the document whose success answer no call has checked ('GET /api/budgets 200'). */
  uncheckedSuccesses(): string[] {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(this.document.paths ?? {}))
      for (const [method, operation] of Object.entries(item as Json)) {
        const success = Object.keys((operation as Json).responses ?? {}).find((status) => status.startsWith('2'));
        const key = `${method.toUpperCase()} ${path} ${success}`;
        if (success && !this.checked.has(key)) missing.push(key);
      }
    return missing;
  }

  /**
   * What is wrong with an answer: null when the document describes this status of the operation
   * and the body (JSON) matches its schema; otherwise the reason.
   */
  async problem(method: string, manifestPath: string, response: Response): Promise<string | null> {
    const path = this.documentPath(manifestPath);
    const operation = this.document.paths?.[path]?.[method.toLowerCase()];
    if (!operation) return `${method} ${path} is not in the document`;
    const status = response.status;
    if (!operation.responses?.[String(status)])
      return `${method} ${path} answered ${status}, which the document does not list`;
    this.checked.add(`${method} ${path} ${status}`);
    const type = response.headers.get('Content-Type') ?? '';
    if (status === 204 || !type.includes('application/json')) {
      await response.body?.cancel();
      return null;
    }
    const validate = this.#validator(method, path, status);
    const body: unknown = await response.json();
    if (!validate) return null;
    if (validate(body)) return null;
    const errors = (validate.errors ?? [])
      .slice(0, 3)
      .map(
        (e) =>
          `${e.instancePath || '(answer)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`,
      );
    return `${method} ${path} ${status}: the answer does not match its schema: ${errors.join('; ')}`;
  }
}
