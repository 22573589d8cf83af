// The OpenAPI 3.1 document of /api, generated, never written by hand: the declared
// resources from the same route builders that serve them (their methods and permission rules)
// and the zod schemas they validate with; every other call from the registry (operations.ts).
// JSON Schemas come from zod's own converter (input side: what a client sends). The API
// Documentation page renders from this document.
import { z } from 'zod';
import { API_MAX_LIMIT } from '../../platform/lib/paging.ts';
import type { Area } from '../../platform/lib/permissions.ts';
import { companyNamed, type ResourceDef } from '../../platform/resources/define.ts';
import { recordSchema } from '../../platform/resources/schema.ts';
import { resourceRowSchema } from '../../platform/resources/row-schema.ts';
import { RESOURCE_LIST, findResource } from '../resources.ts';
import { APP_VERSION } from '../system/index.server.ts';
import { apiCollectionRoute, apiItemRoute, apiPathsOf } from '../../platform/api/resource-api.server.ts';
import { closedObjects } from '../../platform/http/body-fields.server.ts';
import { resourceUpdateBody } from '../../platform/http/request-bodies.server.ts';
import type { AccessRule, Method } from '../../platform/screen/route-access.ts';
import type { OpenApiDocument } from './answers.ts';
import { OPERATIONS, type ApiOperation } from './operations.ts';
import { msg } from '../../platform/i18n/messages.ts';

type Json = Record<string, unknown>;

export interface DocumentSettings {
  rateLimits: { perMinute: number; perHour: number };
}

/** The prefixes under which the resource routes are mounted (app/routes/api.$resource.ts, api.vult.$resource.ts, api.one-network.$resource.ts). */
export const RESOURCE_PREFIXES = ['', 'vult', 'one-network'] as const;

const AREA_LABELS: Record<Area, string> = {
  financial: msg('financial data'),
  subscriber: msg('subscriber data'),
  integrations: msg('API integrations'),
  analytics: msg('analytics'),
  auditLogs: msg('audit logs'),
  backups: msg('backups'),
  users: msg('user management'),
  admin: msg('owners and admins'),
  installation: msg('owners and admins of every company'),
  reference: msg('reference data'),
  personal: msg('any signed-in user'),
} as Record<Area, string>;

/** Who may call, in words. */
export function ruleText(rule: AccessRule): string {
  switch (rule.kind) {
    case 'public':
      return msg('Anyone (no session needed)');
    case 'signedIn':
      return msg('Any signed-in user');
    case 'owner':
      return msg('The owner only');
    case 'area':
      if (rule.area === 'admin') return msg('Owners and admins');
      if (rule.area === 'installation')
        return msg('Owners and admins not limited to one company (404 to an admin of one company)');
      return `Permission: ${AREA_LABELS[rule.area] ?? rule.area}${rule.action === 'read' ? '' : ` (${rule.action})`}`;
    case 'self':
      return rule.or
        ? `The user themself, or permission: ${AREA_LABELS[rule.or.area]} (${rule.or.action})`
        : msg('The user themself only');
    default:
      return rule.kind;
  }
}

/**
 * A zod schema as an inline JSON Schema (without the $schema keyword): `input`, what a client
 * sends (request bodies, queries); `output`, what the API answers.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json;
  return rest;
}

function answerSchema(schema: ApiOperation['success']['schema']): Json {
  if (!schema) return {};
  return schema instanceof z.ZodType ? jsonSchema(schema, 'output') : schema;
}

function queryParameters(schema: z.ZodType | undefined): Json[] {
  if (!schema) return [];
  const json = jsonSchema(schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: s,
  }));
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'table' ? { type: 'string' } : { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
  }));
}

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });

function errorResponses(op: {
  method: Method;
  rule: AccessRule;
  path: string;
  hasInput: boolean;
  oneCompany?: boolean;
  signIn?: boolean;
}): Json {
  const out: Json = {};
  // A sign-in step anyone may call still refuses wrong credentials and ended challenges.
  if (op.signIn) out['401'] = ref('Unauthenticated');
  if (op.hasInput || op.path.includes('{')) out['400'] = ref('Invalid');
  if (op.rule.kind !== 'public') {
    out['401'] = ref('Unauthenticated');
    out['403'] = ref('Forbidden');
  }
  // An admin limited to one company finds no installation-wide call, and no other company's rows.
  const hidden = (op.rule.kind === 'area' && op.rule.area === 'installation') || op.oneCompany;
  if (op.path.includes('{') || hidden) out['404'] = ref('NotFound');
  if (op.method !== 'GET') out['409'] = ref('Conflict');
  out['429'] = ref('TooManyRequests');
  out['500'] = ref('ServerError');
  return out;
}

const pagedHeaders = {
  'X-Total-Count': { description: 'Rows matching the query', schema: { type: 'integer' } },
  Link: { description: '`<…>; rel="next"` while more rows remain', schema: { type: 'string' } },
};

function operationObject(op: ApiOperation, operationId: string): Json {
  const bodies = op.bodies ?? (op.body ? [op.body] : []);
  const success: Json = { description: op.success.description };
  const type = op.success.contentType ?? 'application/json';
  if (op.success.status !== 204)
    success.content = {
      [type]: {
        schema: answerSchema(op.success.schema),
        ...(op.success.example === undefined ? {} : { example: op.success.example }),
      },
    };
  if (op.paged) success.headers = pagedHeaders;
  return {
    operationId,
    tags: [op.tag],
    summary: op.summary,
    description: `Who may call: ${ruleText(op.rule)}.`,
    ...(op.rule.kind === 'public' ? { security: [] } : {}),
    parameters: [...pathParameters(op.path), ...queryParameters(op.query)],
    ...(op.upload
      ? {
          requestBody: {
            required: true,
            description:
              'The CSV file: the body itself (text/csv, the fields in the query), or the "file" part of a multipart form (the fields as its other parts)',
            content: {
              'text/csv': { schema: { type: 'string' } },
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: { file: { type: 'string', format: 'binary' } },
                  required: ['file'],
                  // The other parts are the query's fields (table, mode, dryRun, updateById, allowDuplicate).
                  additionalProperties: { type: 'string' },
                },
              },
            },
          },
        }
      : {}),
    ...(bodies.length
      ? // Closed as apiRoute enforces it: a field a body's schema does not declare is a 400.
        {
          requestBody: {
            required: op.method !== 'POST' || bodies.length > 0,
            content: {
              'application/json': {
                schema: closedObjects(
                  bodies.length === 1 ? jsonSchema(bodies[0]) : { oneOf: bodies.map((body) => jsonSchema(body)) },
                ),
              },
            },
          },
        }
      : {}),
    responses: {
      [String(op.success.status)]: success,
      ...errorResponses({
        method: op.method,
        rule: op.rule,
        path: op.path,
        hasInput: bodies.length > 0 || !!op.query,
        oneCompany: op.oneCompany,
        signIn: op.signIn,
      }),
    },
  };
}

const schemaName = (def: ResourceDef) => def.key.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
/** The component schema of a resource's rows as the API answers them. */
const rowRef = (def: ResourceDef) => ({ $ref: `#/components/schemas/${schemaName(def)}Row` });

/** The declared resources' operations, from the same route builders that serve them. */
export function resourceOperations(): ApiOperation[] {
  const ops: ApiOperation[] = [];
  for (const prefix of RESOURCE_PREFIXES) {
    for (const [shape, route] of [
      ['collection', apiCollectionRoute(RESOURCE_LIST, prefix)],
      ['item', apiItemRoute(RESOURCE_LIST, prefix)],
    ] as const) {
      for (const variant of route.access) {
        const segment = variant.params?.resource;
        const def = findResource(variant.resource);
        if (!segment || !def) continue;
        const path = `/api/${prefix ? `${prefix}/` : ''}${segment}${shape === 'item' ? '/{id}' : ''}`;
        for (const [method, rule] of Object.entries(variant.methods) as [Method, AccessRule][]) {
          const name = schemaName(def);
          const listParams = z.object({
            limit: z
              .number()
              .int()
              .min(1)
              .max(API_MAX_LIMIT)
              .optional()
              .describe(`Rows to return (default and maximum ${API_MAX_LIMIT})`),
            offset: z.number().int().min(0).optional().describe(msg('Rows to skip')),
            sortBy: z
              .enum(Object.keys(def.list.sorts) as [string, ...string[]])
              .optional()
              .describe(msg('Column to sort by')),
            sortOrder: z.enum(['asc', 'desc']).optional().describe(msg('Sort direction')),
            search: z.string().optional().describe(msg('Text search over the list’s searchable columns')),
            companyId: z.number().int().min(1).optional().describe(msg('Rows of this company')),
            company: z.string().optional().describe(msg('Rows of the company with this name')),
            companyType: z
              .string()
              .optional()
              .describe(msg('Rows of companies of this type (mobile, infrastructure, fintech, marketing)')),
            source: z.string().optional().describe(msg('Rows from this revenue source')),
            ...(def.list.filter
              ? {
                  [def.list.filter.param]: z.string().optional().describe(`The list’s ${def.list.filter.param} filter`),
                }
              : {}),
            ...Object.fromEntries(
              (def.list.exact ?? []).map((f) => [
                f,
                z.number().int().optional().describe(`Rows whose ${f} is exactly this`),
              ]),
            ),
          });
          const base = { method, path, tag: msg('Resources'), rule, oneCompany: companyNamed(def) !== null } as const;
          const latest = apiPathsOf(def).some((p) => p.latest && `/api/${p.path}` === path);
          if (method === 'GET' && shape === 'collection' && latest)
            ops.push({
              ...base,
              summary: `The latest ${def.title} row (the list's first, with the same filters)`,
              query: listParams,
              success: { status: 200, description: 'The newest row', schema: rowRef(def) },
            });
          else if (method === 'GET' && shape === 'collection')
            ops.push({
              ...base,
              summary: `List ${def.title}`,
              query: listParams,
              paged: true,
              success: { status: 200, description: `${def.title} rows`, schema: { type: 'array', items: rowRef(def) } },
            });
          if (method === 'POST')
            ops.push({
              ...base,
              summary: `Create a ${def.title} row`,
              body: recordSchema(def),
              success: { status: 201, description: `The new row (created from ${name})`, schema: rowRef(def) },
            });
          if (method === 'GET' && shape === 'item')
            ops.push({
              ...base,
              summary: `One ${def.title} row`,
              success: { status: 200, description: 'The row', schema: rowRef(def) },
            });
          if (method === 'PUT')
            ops.push({
              ...base,
              summary: `Change a ${def.title} row (any subset of fields)`,
              body: resourceUpdateBody(def),
              success: { status: 200, description: 'The row', schema: rowRef(def) },
            });
          if (method === 'DELETE')
            ops.push({
              ...base,
              summary: `Delete a ${def.title} row`,
              success: { status: 204, description: 'Deleted' },
            });
        }
      }
    }
  }
  return ops;
}

/** Every documented operation: the registry and the resources. */
export function allOperations(): ApiOperation[] {
  return [...OPERATIONS, ...resourceOperations()];
}

const error = (description: string, example: Json, extra: Json = {}) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example } },
  ...extra,
});

/**
 * The document for these settings, built once per process (building it converts every zod
 * schema: far too slow for a request) and shared: callers must not change it.
 */
export function openApiDocument(settings: DocumentSettings): OpenApiDocument {
  const key = `${settings.rateLimits.perMinute}/${settings.rateLimits.perHour}`;
  let doc = built.get(key);
  if (!doc) {
    doc = deepFreeze(buildDocument(settings));
    built.set(key, doc);
  }
  return doc;
}

/** The same document as JSON text, serialized once. */
export function openApiText(settings: DocumentSettings): string {
  const key = `${settings.rateLimits.perMinute}/${settings.rateLimits.perHour}`;
  let text = serialized.get(key);
  if (text === undefined) {
    text = JSON.stringify(openApiDocument(settings));
    serialized.set(key, text);
  }
  return text;
}

// One entry per rate-limit setting a process runs with (one, outside tests).
const built = new Map<string, OpenApiDocument>();
const serialized = new Map<string, string>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function buildDocument(settings: DocumentSettings): OpenApiDocument {
  const paths: Record<string, Json> = {};
  const used = new Map<string, number>();
  for (const op of allOperations()) {
    const base = `${op.method.toLowerCase()}${op.path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op, n === 1 ? base : `${base}${n}`);
  }
  const resourceSchemas = Object.fromEntries([
    ...RESOURCE_LIST.filter((def) => !def.readOnly).map((def) => [
      schemaName(def),
      { ...jsonSchema(recordSchema(def)), description: `${def.title}: what a create sends` },
    ]),
    ...RESOURCE_LIST.map((def) => [
      `${schemaName(def)}Row`,
      { ...jsonSchema(resourceRowSchema(def), 'output'), description: `${def.title}: a row as the API answers it` },
    ]),
  ]);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Group Finance Hub API',
      version: APP_VERSION,
      description: [
        'Every call needs a session: sign in with POST /api/auth/login (or the login page) and send the `__session` cookie it sets. Writes from another origin are refused (403).',
        `Rate limits per signed-in user: ${settings.rateLimits.perMinute} requests a minute and ${settings.rateLimits.perHour} an hour, counted with the user's screen actions; beyond them a 429 with Retry-After. AI analyses and test pushes run one at a time per user: another while one runs is a 429 with Retry-After too.`,
        `Lists take limit (default and maximum ${API_MAX_LIMIT}) and offset and send X-Total-Count, plus a Link rel="next" header while more rows remain.`,
        'Errors are JSON { message, errors? }: 400 Invalid data with errors [{ field, message }], 401 Not authenticated, 403 Forbidden or Password change required, 404 Resource not found, 409 with the reason, 429 Too many requests, 500 Internal server error (never a stack).',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    security: [{ session: [] }],
    tags: [...new Set(allOperations().map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: '__session',
          description: 'The session cookie set by sign-in (HttpOnly, SameSite=Lax).',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            message: { type: 'string' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                properties: { field: { type: 'string' }, message: { type: 'string' } },
                required: ['field', 'message'],
              },
            },
          },
          required: ['message'],
        },
        ...resourceSchemas,
      },
      responses: {
        Invalid: error('Bad input: nothing was changed', {
          message: 'Invalid data',
          errors: [{ field: 'amount', message: 'Amount must be a positive number' }],
        }),
        Unauthenticated: error('No valid session', { message: 'Not authenticated' }),
        Forbidden: error('Signed in without the permission, or a password change is required first', {
          message: 'Forbidden',
        }),
        NotFound: error('No such row, or not in the caller’s companies', { message: 'Resource not found' }),
        Conflict: error('The write conflicts with the data', {
          message: 'Cannot delete this department: it is still used by 3 budget entries',
        }),
        TooManyRequests: error(
          'Rate limit reached, or the same work of the caller is already running',
          { message: 'Too many requests' },
          { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } },
        ),
        ServerError: error('An unexpected fault (recorded for System Monitoring)', {
          message: 'Internal server error',
        }),
      },
    },
  };
}
