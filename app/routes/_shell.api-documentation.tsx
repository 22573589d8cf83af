// /api-documentation (every signed-in user): rendered on the server from the
// OpenAPI document served at /api/openapi.json.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { departmentCount } from '../features/api-docs/docs-facts.server.ts';
import {
  ApiDocumentationScreen,
  DOC_TABS,
  type ApiDocsView,
  type DocTab,
} from '../features/api-docs/api-documentation-screen.tsx';
import { docsView, endpointsPage, schemasPage } from '../features/api-docs/docs-view.server.ts';
import { openApiDocument } from '../features/api-docs/document.server.ts';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';
import { loadScreen, tabOf } from '../platform/screen/screen.server.ts';
import { API_MAX_LIMIT } from '../platform/lib/paging.ts';
import { positiveIdParam } from '../platform/lib/query.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/api-documentation'))} · Group Finance Hub` },
];

export const access: RouteAccess = [{ methods: { GET: allow.screen } }];

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url, context }) => {
    const tab = tabOf(
      url,
      DOC_TABS.map((t) => t.key),
    ) as DocTab;
    const doc = openApiDocument({ rateLimits: context.config.apiRateLimits }) as { info: { version: string } };
    const docs = docsView(doc);
    const page = positiveIdParam(url.searchParams.get('page')) ?? 1;
    const departments = await departmentCount(ctx.db);
    const view: ApiDocsView = {
      tab,
      version: doc.info.version,
      departments,
      rateLimits: context.config.apiRateLimits,
      maxLimit: API_MAX_LIMIT,
      endpoints:
        tab === 'endpoints'
          ? endpointsPage(docs, url.searchParams.get('tag'), page, url.searchParams.get('q') ?? '')
          : null,
      filters: tab === 'filters' ? docs.filters : null,
      schemas: tab === 'schemas' ? schemasPage(docs, page) : null,
    };
    return json(view);
  });

export default function ApiDocumentation() {
  const view = useLoaderData<typeof loader>() as ApiDocsView;
  return <ApiDocumentationScreen view={view} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
