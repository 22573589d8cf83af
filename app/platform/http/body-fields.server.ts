// The fields a JSON body may carry, read from the zod schema a route declares for it (its JSON
// Schema, input side, as the OpenAPI document shows it): every field at every depth that the
// schema does not declare is unknown. An object schema is closed unless it says otherwise (a
// record, or z.looseObject): a plain z.object, which would silently drop what it does not know,
// closes like z.strictObject. Types and values are left to the schema's own parse, by the service.
import { z } from 'zod';
import type { FieldError } from '../lib/field-error.ts';

type Json = Record<string, unknown>;

const schemas = new WeakMap<z.ZodType, Json>();

/** The schema's JSON Schema (input side), made once per schema. */
export function inputJsonSchema(schema: z.ZodType): Json {
  let json = schemas.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
    schemas.set(schema, json);
  }
  return json;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `$ref`s of zod's output: '#' (the schema itself) or '#/$defs/…'. */
function resolve(node: Json, root: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  if (ref === '#') return root;
  const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
  const defs = (root.$defs ?? root.definitions) as Record<string, Json> | undefined;
  return (name && defs?.[name]) || {};
}

/** The alternatives a value may match: anyOf/oneOf flattened; allOf merged into one object. */
function alternatives(node: Json, root: Json): Json[] {
  const resolved = resolve(node, root);
  const choices = (resolved.anyOf ?? resolved.oneOf) as Json[] | undefined;
  if (Array.isArray(choices)) return choices.flatMap((choice) => alternatives(choice, root));
  if (Array.isArray(resolved.allOf)) {
    const parts = (resolved.allOf as Json[]).flatMap((part) => alternatives(part, root));
    return [
      {
        type: 'object',
        properties: Object.assign({}, ...parts.map((p) => (p.properties as Json | undefined) ?? {})),
        additionalProperties: parts.some((p) => acceptsAnyKey(p)) ? {} : false,
      },
    ];
  }
  return [resolved];
}

/** A schema saying nothing of the value's shape ({}: unknown, any, or what zod cannot represent). */
const SHAPE_KEYWORDS = [
  'type',
  'properties',
  'items',
  'prefixItems',
  'const',
  'enum',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'not',
];
const unconstrained = (node: Json) => !SHAPE_KEYWORDS.some((keyword) => keyword in node);

const acceptsAnyKey = (node: Json) =>
  unconstrained(node) || (node.additionalProperties !== undefined && node.additionalProperties !== false);

const describesObject = (node: Json) =>
  unconstrained(node) || node.type === 'object' || (node.type === undefined && 'properties' in node);
const describesArray = (node: Json) => unconstrained(node) || node.type === 'array';

function collect(value: unknown, node: Json, root: Json, path: string[], out: FieldError[]): void {
  const options = alternatives(node, root);
  if (Array.isArray(value)) {
    const arrays = options.filter(describesArray);
    if (!arrays.length || arrays.some(unconstrained)) return;
    value.forEach((item, index) => {
      const items = arrays
        .map((a) => ((a.prefixItems as Json[] | undefined)?.[index] ?? a.items) as Json | undefined)
        .filter((s): s is Json => isObject(s));
      if (items.length === arrays.length) collect(item, { anyOf: items }, root, [...path, String(index)], out);
    });
    return;
  }
  if (!isObject(value)) return;
  const objects = options.filter(describesObject);
  // Not an object where the schema wants one: the schema's own parse says so.
  if (!objects.length || objects.some(unconstrained)) return;
  for (const key of Object.keys(value)) {
    const declared = objects.flatMap((o) => {
      const properties = o.properties as Json | undefined;
      if (properties && Object.hasOwn(properties, key)) return [properties[key] as Json];
      if (acceptsAnyKey(o)) return [isObject(o.additionalProperties) ? o.additionalProperties : {}];
      return [];
    });
    if (!declared.length) out.push({ field: [...path, key].join('.'), message: 'Unknown field' });
    else if (!declared.some((d) => isObject(d) && unconstrained(d)))
      collect(value[key], { anyOf: declared }, root, [...path, key], out);
  }
}

/**
 * The fields of `value` (parsed JSON) that `schema` does not declare, as field errors
 * ('keys.extra' for a nested one); none when `value` is not an object or array the schema
 * describes. Without a schema (a route that takes no body) every field is unknown.
 */
export function unknownFields(value: unknown, schema: z.ZodType | undefined): FieldError[] {
  const out: FieldError[] = [];
  if (!schema) {
    if (isObject(value)) for (const key of Object.keys(value)) out.push({ field: key, message: 'Unknown field' });
    return out;
  }
  const root = inputJsonSchema(schema);
  collect(value, root, root, [], out);
  return out;
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMAS = new Set([
  'items',
  'additionalProperties',
  'not',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
]);

/**
 * A JSON Schema as the kit enforces it: every object that does not say otherwise gets
 * `additionalProperties: false` (the OpenAPI document shows request bodies so).
 */
export function closedObjects(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, closedObjects(schema)]));
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(closedObjects);
    else if (SCHEMAS.has(key)) out[key] = closedObjects(value);
    else out[key] = value;
  }
  if (
    (out.type === 'object' || (out.type === undefined && 'properties' in out)) &&
    out.additionalProperties === undefined
  )
    out.additionalProperties = false;
  return out;
}
