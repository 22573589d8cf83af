// The API Documentation page's content, read from the OpenAPI document (never written apart
// from it): endpoints by tag with who may call, the list filters and which lists take them, and
// the resources' fields with their rules.
type Json = Record<string, any>;

export interface DocEndpoint {
  method: string;
  path: string;
  summary: string;
  who: string;
  tag: string;
}

export interface DocFilter {
  name: string;
  description: string;
  /** The list paths that take it. */
  paths: string[];
}

export interface DocSchema {
  name: string;
  description: string;
  fields: { name: string; type: string; required: boolean; detail: string }[];
}


function typeOf(schema: Json): string {
  if (schema.enum) return 'one of';
  if (schema.anyOf) return (schema.anyOf as Json[]).map(typeOf).filter((t) => t !== 'null').join(' or ') + ((schema.anyOf as Json[]).some((s) => s.type === 'null') ? ' (or null)' : '');
  return String(schema.type ?? 'any');
}

function rulesOf(schema: Json): string {
  const s = schema.anyOf ? (schema.anyOf as Json[]).find((x) => x.type !== 'null') ?? schema : schema;
  const parts: string[] = [];
  if (s.enum) parts.push((s.enum as unknown[]).join(', '));
  if (s.minLength !== undefined && s.minLength > 1) parts.push(`at least ${s.minLength} characters`);
  if (s.maxLength !== undefined) parts.push(`at most ${s.maxLength} characters`);
  if (s.exclusiveMinimum !== undefined || (s.minimum !== undefined && s.minimum > 0)) parts.push('positive');
  else if (s.minimum !== undefined) parts.push(`from ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < 2_147_483_647) parts.push(`up to ${s.maximum}`);
  if (s.format) parts.push(String(s.format));
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join('; ');
}

export function docsView(doc: Json): { endpoints: DocEndpoint[]; filters: DocFilter[]; schemas: DocSchema[] } {
  const endpoints: DocEndpoint[] = [];
  const filters = new Map<string, DocFilter>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item as Record<string, Json>)) {
      endpoints.push({ method: method.toUpperCase(), path, summary: op.summary, who: String(op.description ?? '').replace(/^Who may call: /, '').replace(/\.$/, ''), tag: op.tags?.[0] ?? 'Other' });
      if (method !== 'get' || op.tags?.[0] !== 'Resources') continue;
      for (const p of (op.parameters ?? []) as Json[]) {
        if (p.in !== 'query') continue;
        const f: DocFilter = filters.get(p.name) ?? { name: String(p.name), description: String(p.schema?.description ?? p.description ?? ''), paths: [] };
        f.paths.push(path);
        filters.set(p.name, f);
      }
    }
  }
  const schemas = Object.entries(doc.components.schemas as Record<string, Json>)
    .filter(([name]) => name !== 'Error')
    .map(([name, schema]) => ({
      name,
      description: String(schema.description ?? ''),
      fields: Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([field, s]) => ({ name: field, type: typeOf(s), required: (schema.required ?? []).includes(field), detail: rulesOf(s) })),
    }));
  return { endpoints, filters: [...filters.values()], schemas };
}
