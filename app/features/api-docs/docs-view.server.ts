// The API Documentation page's content, read from the OpenAPI document (never written apart
// from it): endpoints by tag with who may call, the list filters and which lists take them, and
// the resources' fields with their rules.

/** A JSON Schema of the document, as far as the page reads it. */
type SchemaJson = {
  type?: unknown;
  enum?: unknown[];
  anyOf?: SchemaJson[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  format?: unknown;
  default?: unknown;
  description?: unknown;
  properties?: Record<string, SchemaJson>;
  required?: string[];
};

type OperationJson = {
  summary: string;
  description?: unknown;
  tags?: string[];
  parameters?: { in: string; name: string; description?: unknown; schema?: SchemaJson }[];
};

/** The OpenAPI document (document.server.ts), as far as the page reads it. */
type DocumentJson = {
  paths: Record<string, Record<string, OperationJson>>;
  components: { schemas: Record<string, SchemaJson> };
};

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

function typeOf(schema: SchemaJson): string {
  if (schema.enum) return 'one of';
  if (schema.anyOf)
    return (
      schema.anyOf
        .map(typeOf)
        .filter((t) => t !== 'null')
        .join(' or ') + (schema.anyOf.some((s) => s.type === 'null') ? ' (or null)' : '')
    );
  return String(schema.type ?? 'any');
}

function rulesOf(schema: SchemaJson): string {
  const s = schema.anyOf ? (schema.anyOf.find((x) => x.type !== 'null') ?? schema) : schema;
  const parts: string[] = [];
  if (s.enum) parts.push(s.enum.join(', '));
  if (s.minLength !== undefined && s.minLength > 1) parts.push(`at least ${s.minLength} characters`);
  if (s.maxLength !== undefined) parts.push(`at most ${s.maxLength} characters`);
  if (s.exclusiveMinimum !== undefined || (s.minimum !== undefined && s.minimum > 0)) parts.push('positive');
  else if (s.minimum !== undefined) parts.push(`from ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < 2_147_483_647) parts.push(`up to ${s.maximum}`);
  if (s.format) parts.push(String(s.format));
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join('; ');
}

export interface DocsView {
  endpoints: DocEndpoint[];
  filters: DocFilter[];
  schemas: DocSchema[];
}

const views = new WeakMap<object, DocsView>();

/** The page's content of a document, read once per document (the document is built once). */
export function docsView(doc: Record<string, unknown>): DocsView {
  let view = views.get(doc);
  if (!view) {
    view = readDocument(doc as DocumentJson);
    views.set(doc, view);
  }
  return view;
}

function readDocument(doc: DocumentJson): DocsView {
  const endpoints: DocEndpoint[] = [];
  const filters = new Map<string, DocFilter>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      endpoints.push({
        method: method.toUpperCase(),
        path,
        summary: op.summary,
        who: String(op.description ?? '')
          .replace(/^Who may call: /, '')
          .replace(/\.$/, ''),
        tag: op.tags?.[0] ?? 'Other',
      });
      if (method !== 'get' || op.tags?.[0] !== 'Resources') continue;
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        const f: DocFilter = filters.get(p.name) ?? {
          name: String(p.name),
          description: String(p.schema?.description ?? p.description ?? ''),
          paths: [],
        };
        f.paths.push(path);
        filters.set(p.name, f);
      }
    }
  }
  const schemas = Object.entries(doc.components.schemas)
    .filter(([name]) => name !== 'Error')
    .map(([name, schema]) => ({
      name,
      description: String(schema.description ?? ''),
      fields: Object.entries(schema.properties ?? {}).map(([field, s]) => ({
        name: field,
        type: typeOf(s),
        required: (schema.required ?? []).includes(field),
        detail: rulesOf(s),
      })),
    }));
  return { endpoints, filters: [...filters.values()], schemas };
}

/** Endpoints shown at once: a tag with more is paged (the page stays far below 60 KB). */
export const ENDPOINTS_PAGE_SIZE = 30;
/** Data schemas shown at once. */
export const SCHEMAS_PAGE_SIZE = 6;

export interface EndpointsPage {
  /** Every tag with how many endpoints it has, in the document's order. */
  tags: { name: string; count: number }[];
  /** The tag shown; '' while a filter is applied (its matches come from every tag). */
  tag: string;
  /** The filter applied (trimmed), or ''. */
  q: string;
  rows: DocEndpoint[];
  /** The page's rows by area (the path's first segment after /api), for the page's contents. */
  sections: EndpointSection[];
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
}

export interface SchemasPage {
  /** Every schema with the page it is on. */
  index: { name: string; page: number }[];
  rows: DocSchema[];
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
}

const clamp = (page: number, pageCount: number) => Math.min(Math.max(1, Math.floor(page) || 1), pageCount);

export interface EndpointSection {
  /** The anchor of the section. */
  id: string;
  /** '/api/budgets'. */
  title: string;
  rows: DocEndpoint[];
}

const areaOf = (path: string) => /^\/api\/[^/{]+/.exec(path)?.[0] ?? path;

function sectionsOf(rows: DocEndpoint[]): EndpointSection[] {
  const sections: EndpointSection[] = [];
  for (const row of rows) {
    const title = areaOf(row.path);
    const known = sections.find((s) => s.title === title);
    if (known) known.rows.push(row);
    else sections.push({ id: `endpoints${title.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`, title, rows: [row] });
  }
  return sections;
}

/** Whether an endpoint matches a filter: every word in its method, path, summary, caller rule or tag. */
function matches(endpoint: DocEndpoint, words: string[]): boolean {
  const text = `${endpoint.method} ${endpoint.path} ${endpoint.summary} ${endpoint.who} ${endpoint.tag}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/**
 * One tag's endpoints, one page of them (an unknown tag shows the first); with a filter `q`, the
 * endpoints of every tag that match it instead.
 */
export function endpointsPage(view: DocsView, tag: string | null, page: number, q = ''): EndpointsPage {
  const tags: EndpointsPage['tags'] = [];
  for (const e of view.endpoints) {
    const known = tags.find((t) => t.name === e.tag);
    if (known) known.count += 1;
    else tags.push({ name: e.tag, count: 1 });
  }
  const filter = q.trim().slice(0, 200);
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const current = words.length ? '' : (tags.find((t) => t.name === tag)?.name ?? tags[0]?.name ?? '');
  const all = words.length
    ? view.endpoints.filter((e) => matches(e, words))
    : view.endpoints.filter((e) => e.tag === current);
  const pageCount = Math.max(1, Math.ceil(all.length / ENDPOINTS_PAGE_SIZE));
  const p = clamp(page, pageCount);
  const rows = all.slice((p - 1) * ENDPOINTS_PAGE_SIZE, p * ENDPOINTS_PAGE_SIZE);
  return {
    tags,
    tag: current,
    q: words.length ? filter : '',
    rows,
    sections: sectionsOf(rows),
    page: p,
    pageCount,
    total: all.length,
    pageSize: ENDPOINTS_PAGE_SIZE,
  };
}

/** One page of the data schemas, with where every schema is. */
export function schemasPage(view: DocsView, page: number): SchemasPage {
  const pageCount = Math.max(1, Math.ceil(view.schemas.length / SCHEMAS_PAGE_SIZE));
  const p = clamp(page, pageCount);
  return {
    index: view.schemas.map((s, i) => ({ name: s.name, page: Math.floor(i / SCHEMAS_PAGE_SIZE) + 1 })),
    rows: view.schemas.slice((p - 1) * SCHEMAS_PAGE_SIZE, p * SCHEMAS_PAGE_SIZE),
    page: p,
    pageCount,
    total: view.schemas.length,
    pageSize: SCHEMAS_PAGE_SIZE,
  };
}
