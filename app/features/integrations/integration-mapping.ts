// An endpoint's mappingConfig (JSON), shared by the form's validation and the sync engine.
//
// Inbound (pull):
//   { "records": "data.items",            path of the record array in each page (default: the body
//                                          itself when it is an array, else "data")
//     "key": "id",                         path of each record's external key (required): a second
//                                          run updates the row it made instead of adding another
//     "company": "entity",                 path of the company a record belongs to (its name or
//                                          id), for an endpoint that names no company: the
//                                          record's lookups resolve within it
//     "fields": { "<field>": "<path>" | { "path", "transform"?, "lookup"? } | { "constant" } },
//     "pagination": { "type": "next", "path": "links.next" }
//                 | { "type": "page", "param": "page", "sizeParam"?, "size"?, "start"? }
//                 | { "type": "offset", "param": "offset", "limitParam"?, "size"? },
//     "maxPages": 100 }
//   transforms: number, cents (remote cents → dollars), date (→ YYYY-MM-DD), text, boolean;
//   lookup: companies | departments | expenseCategories (the row whose name matches → its id;
//   an expense category within the record's company; a name several rows share skips the record).
// Outbound (push): { "batchSize": 100, "fields"?: { "<remote name>": "<field>" } }.
// The schemas are built with the zod they are given: the endpoint declaration checks a mapping
// with the zod its rules are handed (resources.ts), so the declarations, which list pages load,
// do not bring zod along; the sync engine passes its own.
import type { z } from 'zod';
import type { FieldError } from '../../platform/lib/field-error.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { ENGLISH, marked, type Reader } from '../../platform/i18n/refusal-words.ts';

type Zod = typeof z;

export const TRANSFORMS = ['number', 'cents', 'date', 'text', 'boolean'] as const;
export const LOOKUPS = ['companies', 'departments', 'expenseCategories'] as const;

function schemasWith(z: Zod) {
  const path = z
    .string()
    .trim()
    .min(1, msg('a path is required'))
    .max(200)
    .regex(/^[\w$-]+(\.[\w$-]+)*$/, msg('a path is names joined by dots, e.g. data.items'));

  const FieldRule = z.union([
    path.transform((p) => ({ path: p, transform: undefined, lookup: undefined, constant: undefined })),
    z
      .strictObject({ constant: z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]) })
      .transform((r) => ({ ...r, path: undefined, transform: undefined, lookup: undefined })),
    z
      .strictObject({ path, transform: z.enum(TRANSFORMS).optional(), lookup: z.enum(LOOKUPS).optional() })
      .transform((r) => ({ ...r, constant: undefined })),
  ]);

  const Pagination = z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('next'), path }),
    z.strictObject({
      type: z.literal('page'),
      param: z.string().min(1).max(50),
      sizeParam: z.string().min(1).max(50).optional(),
      size: z.number().int().min(1).max(1000).optional(),
      start: z.number().int().min(0).max(1).optional(),
    }),
    z.strictObject({
      type: z.literal('offset'),
      param: z.string().min(1).max(50),
      limitParam: z.string().min(1).max(50).optional(),
      size: z.number().int().min(1).max(1000).default(100),
    }),
  ]);

  const InboundMapping = z.strictObject({
    records: path.optional(),
    key: path,
    company: path.optional(),
    fields: z
      .record(z.string().regex(/^\w+$/, msg('field names are letters, digits and _')), FieldRule)
      .refine((f) => Object.keys(f).length > 0, msg('map at least one field')),
    pagination: Pagination.optional(),
    maxPages: z.number().int().min(1).max(1000).default(100),
  });

  const OutboundMapping = z.strictObject({
    batchSize: z.number().int().min(1).max(1000).default(100),
    fields: z.record(z.string().min(1).max(100), z.string().regex(/^\w+$/)).optional(),
  });

  return { FieldRule, InboundMapping, OutboundMapping };
}

type Schemas = ReturnType<typeof schemasWith>;
const built = new WeakMap<Zod, Schemas>();

/** The mapping schemas, built once per zod. */
function schemas(z: Zod): Schemas {
  let found = built.get(z);
  if (!found) built.set(z, (found = schemasWith(z)));
  return found;
}

export type InboundMappingConfig = z.output<Schemas['InboundMapping']>;
export type OutboundMappingConfig = z.output<Schemas['OutboundMapping']>;
export type FieldRuleConfig = z.output<Schemas['FieldRule']>;

/** Why a mapping was refused: the English, and its words for any reader. */
type Refused = { ok: false; message: string; words: (reader: Reader) => string };

function refusal(message: string): Refused {
  return { ok: false, message, words: (reader) => reader.t(message) };
}

/**
 * The mapping, or why not. The problem is the first issue zod finds: the schema's own messages
 * are the catalog's, zod's built-in ones come in the reader's language from zod's own locales
 * (the JSON path stays as written: it names the remote's data).
 */
function parsed<S extends z.ZodType>(z: Zod, schema: S, text: string): { ok: true; value: z.output<S> } | Refused {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return refusal(msg('Mapping must be a JSON object'));
  }
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  const problem = (reader: Reader) => {
    const issue = (
      reader.locale === 'en' ? result : schema.safeParse(raw, { error: z.locales[reader.locale]().localeError })
    ).error!.issues[0];
    const values = { path: issue.path.join('.'), problem: reader.t(issue.message) };
    return issue.path.length
      ? reader.t(msg('Mapping {path}: {problem}'), values)
      : reader.t(msg('Mapping {problem}'), values);
  };
  return { ok: false, message: problem(ENGLISH), words: problem };
}

export function parseInboundMapping(z: Zod, text: string | null) {
  return text
    ? parsed(z, schemas(z).InboundMapping, text)
    : refusal(msg('An inbound endpoint needs a mapping (mappingConfig with key and fields)'));
}

export function parseOutboundMapping(z: Zod, text: string | null) {
  return parsed(z, schemas(z).OutboundMapping, text || '{}');
}

/** The form's check of a mapping for its direction. */
export function mappingErrors(z: Zod, text: string, direction: 'inbound' | 'outbound'): FieldError[] {
  const result = direction === 'inbound' ? parseInboundMapping(z, text) : parseOutboundMapping(z, text);
  return result.ok ? [] : [marked({ field: 'mappingConfig', message: result.message }, result.words)];
}

/** The value at a dotted path of a JSON value. */
export function valueAt(source: unknown, dotted: string | undefined): unknown {
  if (dotted === undefined) return source;
  let current = source;
  for (const part of dotted.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
