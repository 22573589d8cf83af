// The OpenAPI document (docs/api.md): valid OpenAPI 3.1; every /api route of the built app and
// every method it answers is documented, under the very rule the route enforces; nothing is
// documented that the app does not serve; the document is served to signed-in users only and
// the API Documentation page renders from it.
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { docsView, endpointsPage, schemasPage } from './docs-view.server.ts';
import { allOperations, openApiDocument } from './document.server.ts';
import type { AccessRule } from '../../platform/screen/route-access.ts';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { buildManifest, loadBuild, type ManifestEntry } from '../../../test/security/manifest.ts';
import { useTestServer } from '../../../test/server.ts';

const withoutRefusal = (rule: AccessRule) => {
  const { refusal: _, ...rest } = rule as AccessRule & { refusal?: string };
  return rest;
};
const placeholders = (path: string) => (path.match(/\{/g) ?? []).length;
const pattern = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);

describe('the OpenAPI document', () => {
  let entries: ManifestEntry[];
  beforeAll(async () => {
    entries = buildManifest(await loadBuild()).entries.filter(
      (e) => e.kind === 'api' && e.rule.kind !== 'none' && e.rule.kind !== 'redirect',
    );
  });

  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(
      openApiDocument({ rateLimits: { perMinute: 100, perHour: 1000 } }) as never,
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route and method of the built app, under the rule the route enforces', () => {
    const ops = allOperations();
    const missing: string[] = [];
    const wrongRule: string[] = [];
    for (const entry of entries) {
      const concrete = entry.path.replace(/:id\b/g, '1');
      // The most literal documented path that matches (/api/users/stats before /api/users/{id}).
      const op = ops
        .filter((o) => o.method === entry.method && pattern(o.path).test(concrete))
        .sort((a, b) => placeholders(a.path) - placeholders(b.path))[0];
      if (!op) missing.push(entry.name);
      else if (JSON.stringify(withoutRefusal(op.rule)) !== JSON.stringify(withoutRefusal(entry.rule)))
        wrongRule.push(`${entry.name}: documented ${JSON.stringify(op.rule)}, enforced ${JSON.stringify(entry.rule)}`);
    }
    expect(missing).toEqual([]);
    expect(wrongRule).toEqual([]);
  });

  it('documents nothing the app does not serve', () => {
    const phantom = allOperations().filter(
      (op) => !entries.some((e) => e.method === op.method && pattern(op.path).test(e.path.replace(/:id\b/g, '1'))),
    );
    expect(phantom.map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  it('states the session rule, the rate limits and the errors; request bodies come from the routes’ zod schemas', () => {
    const doc = openApiDocument({ rateLimits: { perMinute: 7, perHour: 70 } }) as any;
    expect(doc.components.securitySchemes.session).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'cookie', name: '__session' }),
    );
    expect(doc.info.description).toContain('7 requests a minute and 70 an hour');
    expect(doc.paths['/api/auth/login'].post.security).toEqual([]);
    expect(doc.paths['/api/budgets'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['departmentId', 'categoryId', 'amount']),
    );
    expect(doc.paths['/api/budgets'].get.responses['200'].headers['X-Total-Count']).toBeDefined();
    expect(
      doc.paths['/api/system/errors/{id}/resolve'].post.requestBody.content['application/json'].schema.properties
        .resolution,
    ).toEqual(expect.objectContaining({ type: 'string', minLength: 1 }));
    expect(doc.components.responses.Invalid.content['application/json'].example).toEqual({
      message: 'Invalid data',
      errors: [{ field: 'amount', message: 'Amount must be a positive number' }],
    });
  });

  it('shows request bodies closed, as /api enforces them: every object a body describes says which fields it takes', () => {
    const doc = openApiDocument({ rateLimits: { perMinute: 100, perHour: 1000 } }) as any;
    const open: string[] = [];
    const visit = (node: any, where: string) => {
      if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${where}[${i}]`));
      if (!node || typeof node !== 'object') return;
      if ((node.type === 'object' || node.properties) && node.additionalProperties === undefined) open.push(where);
      for (const key of ['properties', '$defs'])
        for (const [name, schema] of Object.entries(node[key] ?? {})) visit(schema, `${where}.${name}`);
      for (const key of ['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'prefixItems'])
        if (node[key] !== undefined) visit(node[key], `${where}/${key}`);
    };
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item))
        for (const [type, content] of Object.entries<any>(op.requestBody?.content ?? {}))
          visit(content.schema, `${method.toUpperCase()} ${path} ${type}`);
    }
    expect(open).toEqual([]);
    const credential =
      doc.paths['/api/api-integration-credentials'].post.requestBody.content['application/json'].schema;
    expect(credential).toMatchObject({
      additionalProperties: false,
      properties: { sourceId: expect.any(Object), credentialKey: expect.any(Object) },
    });
    expect(credential.properties.isActive).toBeUndefined();
  });
});

describe.each(TEST_DIALECTS)('/api/openapi.json and the API Documentation page on %s', (dialect) => {
  const { client, signedIn } = useTestServer(dialect);

  it('needs a session; answers the document; the page renders it', async () => {
    expect((await client().get('/api/openapi.json')).status).toBe(401);
    const { c } = await signedIn({ role: 'viewer' });
    const response = await c.get('/api/openapi.json');
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/api/budgets/{id}');
    for (const [tab, text] of [
      ['filters', 'companyType'],
      ['endpoints', '/api/auth/login'],
      ['schemas', 'Budgets'],
      ['authentication', '__session'],
    ]) {
      const html = await (await c.get(`/api-documentation?tab=${tab}`)).text();
      expect(html, tab).toContain('API Documentation');
      expect(html, tab).toContain(text);
      expect(html, tab).not.toContain('no authentication');
    }
  });

  it('the page shows every endpoint and schema on one of its small pages, by tag and by page links', async () => {
    const { c } = await signedIn({ role: 'viewer' });
    const view = docsView(openApiDocument({ rateLimits: { perMinute: 100, perHour: 1000 } }));
    const pages: [string, string[]][] = [];
    for (const { name } of endpointsPage(view, null, 1).tags) {
      for (let page = 1, first = endpointsPage(view, name, 1); page <= first.pageCount; page++) {
        pages.push([
          `?tab=endpoints&tag=${encodeURIComponent(name)}&page=${page}`,
          endpointsPage(view, name, page).rows.map((e) => e.path),
        ]);
      }
    }
    for (let page = 1; page <= schemasPage(view, 1).pageCount; page++)
      pages.push([`?tab=schemas&page=${page}`, schemasPage(view, page).rows.map((s) => `schema-${s.name}`)]);
    const shown = new Set<string>();
    for (const [query, texts] of pages) {
      const html = await (await c.get(`/api-documentation${query}`)).text();
      expect(html.length, query).toBeLessThan(60_000);
      for (const text of texts) {
        expect(html, query).toContain(text);
        shown.add(text);
      }
      // The next page is a link (no JavaScript needed).
      if (query.endsWith('&page=1') && pages.some(([q]) => q === query.replace('&page=1', '&page=2')))
        expect(html).toContain('page=2');
    }
    expect(shown).toContain('/api/budgets/{id}');
    expect([...shown].filter((t) => t.startsWith('/api/')).length).toBe(
      new Set(view.endpoints.map((e) => e.path)).size,
    );
  });

  it('the endpoints tab has contents by area and a filter (a GET parameter) across every tag', async () => {
    const { c } = await signedIn({ role: 'viewer' });
    const tag = await (await c.get('/api-documentation?tab=endpoints&tag=Resources')).text();
    // The page's areas, each an anchored section listed in the contents.
    const anchors = [...tag.matchAll(/<a href="#(endpoints-api-[a-z0-9-]+)"/g)].map((m) => m[1]);
    expect(anchors.length).toBeGreaterThan(1);
    for (const anchor of anchors) expect(tag).toContain(`<section id="${anchor}"`);
    expect(anchors).toContain('endpoints-api-budgets');
    expect(tag).toMatch(/<form method="get"[^>]*aria-label="Filter endpoints"/);

    const filtered = await (await c.get('/api-documentation?tab=endpoints&q=budget')).text();
    expect(filtered).toContain('/api/budgets/{id}');
    expect(filtered).toContain('/api/ai/budget-analysis');
    expect(filtered).not.toContain('/api/auth/login');
    expect(filtered).toMatch(/\d+ endpoints match “budget”/);
    expect(filtered).toContain('value="budget"');
    // Matches from two tags: the contents lead to each area.
    expect(filtered).toContain('<a href="#endpoints-api-budgets"');
    expect(filtered).toContain('<a href="#endpoints-api-ai"');
    // Every word must match: the method narrows the paths down.
    const posts = await (await c.get('/api-documentation?tab=endpoints&q=POST%20%2Fapi%2Fbudgets')).text();
    const methods = [...posts.matchAll(/font-semibold [^"]*">(GET|POST|PUT|PATCH|DELETE)<\/span>/g)].map((m) => m[1]);
    expect(methods.length).toBeGreaterThan(0);
    expect(new Set(methods)).toEqual(new Set(['POST']));
    const none = await (await c.get('/api-documentation?tab=endpoints&q=no-such-endpoint')).text();
    expect(none).toContain('No endpoint matches “no-such-endpoint”.');
    expect(none).toContain('0 endpoints match');
  });
});
