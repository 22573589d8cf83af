// API Documentation (every signed-in user): the tabs Smart Filters, Endpoints, Data
// Schemas and Authentication, rendered on the server from the OpenAPI document the app serves at
// /api/openapi.json, so the page can only say what the API does. It states the truth the old
// page did not: every call needs a session, and the rate limits are enforced. Endpoints show one
// tag at a time, or the matches of a filter (a GET form), with the page's contents by area; the
// schemas a few at a time (links and forms, so also without JavaScript), which keeps the page small.
import { Form } from '@remix-run/react';
import type { DocFilter, EndpointsPage, SchemasPage } from './docs-view.server.ts';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TabNav } from '../../platform/screen/action-result.tsx';
import { Pagination } from '../../ui/table/pagination.tsx';
import { AppLink } from '../../ui/app-link.tsx';
import { Button, Card, inputClass } from '../../ui/form.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { docRules, docText, docType, say } from './doc-text.tsx';

export const DOC_TABS = [
  { key: 'filters', label: msg('Smart Filters') },
  { key: 'endpoints', label: msg('Endpoints') },
  { key: 'schemas', label: msg('Data Schemas') },
  { key: 'authentication', label: msg('Authentication') },
] as const;
export type DocTab = (typeof DOC_TABS)[number]['key'];

export interface ApiDocsView {
  tab: DocTab;
  version: string;
  departments: number;
  rateLimits: { perMinute: number; perHour: number };
  maxLimit: number;
  /** One tag's endpoints (a page of them): the whole list would be over 100 KB of HTML. */
  endpoints: EndpointsPage | null;
  filters: DocFilter[] | null;
  schemas: SchemasPage | null;
}

const METHOD_CLASS: Record<string, string> = {
  GET: 'bg-blue-100 text-blue-800',
  POST: 'bg-green-100 text-green-800',
  PUT: 'bg-amber-50 text-amber-900',
  PATCH: 'bg-amber-50 text-amber-900',
  DELETE: 'bg-red-100 text-red-800',
};

function EndpointRow({ e }: { e: EndpointsPage['rows'][number] }) {
  const t = useT();
  return (
    <li className="py-2 text-sm">
      <p className="flex flex-wrap items-center gap-2">
        <span
          translate="no"
          className={`w-16 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold ${METHOD_CLASS[e.method] ?? 'bg-slate-100 text-slate-700'}`}
        >
          {e.method}
        </span>
        <code className="break-all font-mono text-slate-900" translate="no">
          {e.path}
        </code>
      </p>
      <p className="mt-1 text-slate-700">{docText(e.summary, t)}</p>
      <p className="text-xs text-slate-600">{docText(e.who, t)}</p>
    </li>
  );
}

function Endpoints({ endpoints }: { endpoints: EndpointsPage }) {
  const { q, sections } = endpoints;
  const t = useT();
  return (
    <div className="space-y-4" data-testid="endpoints">
      <Form method="get" role="search" aria-label={t('Filter endpoints')} className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="tab" value="endpoints" />
        <label className="min-w-[12rem] flex-1 text-sm font-medium text-slate-700">
          {t('Filter endpoints')}
          <input
            type="search"
            name="q"
            defaultValue={q}
            maxLength={200}
            placeholder={t('Path, method or description, e.g. budgets POST')}
            className={`${inputClass} mt-1 font-normal`}
          />
        </label>
        <Button type="submit">{t('Filter')}</Button>
        {q ? (
          <AppLink to="?tab=endpoints" className="btn-secondary">
            {t('Clear')}
          </AppLink>
        ) : null}
      </Form>
      <nav aria-label={t('Endpoint groups')} className="flex flex-wrap gap-2 text-sm">
        {endpoints.tags.map((tag) => (
          <AppLink
            key={tag.name}
            to={`?tab=endpoints&tag=${encodeURIComponent(tag.name)}`}
            aria-current={tag.name === endpoints.tag ? 'page' : undefined}
            className={`rounded-full border px-3 py-1 ${tag.name === endpoints.tag ? 'border-blue-700 bg-blue-50 font-semibold text-blue-800' : 'border-slate-300 text-slate-700 hover:bg-slate-50'}`}
          >
            {t('{tag} ({count})', { tag: t(tag.name), count: tag.count })}
          </AppLink>
        ))}
      </nav>
      <Card
        title={
          q
            ? t('{count, plural, one {# endpoint matches “{q}”} other {# endpoints match “{q}”}}', {
                count: endpoints.total,
                q,
              })
            : t(endpoints.tag)
        }
      >
        {endpoints.total === 0 ? (
          <p className="text-sm text-slate-700" data-testid="no-endpoints">
            {t('No endpoint matches “{q}”.', { q })}
          </p>
        ) : null}
        {sections.length > 1 ? (
          <nav
            aria-label={t('Contents')}
            className="mb-3 border-b border-slate-200 pb-3 text-sm"
            data-testid="endpoint-contents"
          >
            <h3 className="mb-1 text-xs font-semibold uppercase text-slate-600">{t('On this page')}</h3>
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {sections.map((section) => (
                <li key={section.id}>
                  <a href={`#${section.id}`} className="font-mono text-blue-700 underline" translate="no">
                    {section.title}
                  </a>{' '}
                  <span className="text-slate-600">{`(${section.rows.length})`}</span>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {sections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-4">
            <h3
              id={`${section.id}-title`}
              className="mt-2 font-mono text-sm font-semibold text-slate-800"
              translate="no"
            >
              {section.title}
            </h3>
            <ul className="divide-y divide-slate-100">
              {section.rows.map((e) => (
                <EndpointRow key={`${e.method} ${e.path}`} e={e} />
              ))}
            </ul>
          </section>
        ))}
        {endpoints.pageCount > 1 ? (
          <Pagination
            page={endpoints.page}
            pageCount={endpoints.pageCount}
            total={endpoints.total}
            pageSize={endpoints.pageSize}
          />
        ) : null}
      </Card>
    </div>
  );
}

function Filters({ filters, maxLimit }: { filters: DocFilter[]; maxLimit: number }) {
  const t = useT();
  return (
    <Card title={t('List filters')}>
      <p className="mb-3 text-sm text-slate-700">
        {t(
          'Every list (GET on a collection) takes these query parameters; filters combine. Lists answer at most {max} rows at a time and send the total in X-Total-Count.',
          { max: maxLimit },
        )}
      </p>
      <dl className="divide-y divide-slate-100 text-sm" data-testid="filters">
        {filters.map((f) => (
          <div key={f.name} className="py-2">
            <dt>
              <code className="font-mono font-semibold text-slate-900" translate="no">
                {f.name}
              </code>
            </dt>
            <dd className="text-slate-700">{docText(f.description, t)}</dd>
            <dd className="text-xs text-slate-600">
              {f.paths.length > 6 ? (
                say(
                  {
                    paths: <span translate="no">{f.paths.slice(0, 4).join(', ')}</span>,
                  },
                  (v) => t('{count} lists, e.g. {paths}', { ...v, count: f.paths.length }),
                )
              ) : (
                <span translate="no">{f.paths.join(', ')}</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function Schemas({ schemas }: { schemas: SchemasPage }) {
  const t = useT();
  return (
    <div className="space-y-4" data-testid="schemas">
      <nav aria-label={t('Data schemas')} className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
        {schemas.index.map((s) => (
          <AppLink
            key={s.name}
            to={`?tab=schemas&page=${s.page}#schema-${s.name}`}
            className="font-mono text-blue-700 underline"
            translate="no"
          >
            {s.name}
          </AppLink>
        ))}
      </nav>
      <div className="grid gap-6 lg:grid-cols-2">
        {schemas.rows.map((s) => (
          <div key={s.name} id={`schema-${s.name}`}>
            <Card title={<span translate="no">{s.name}</span>}>
              <p className="mb-2 text-xs text-slate-600">{docText(s.description, t)}</p>
              <table className="min-w-full text-sm">
                <caption className="sr-only">
                  {say({ name: <span translate="no">{s.name}</span> }, (v) => t('{name} fields', v))}
                </caption>
                <thead>
                  <tr className="text-left text-xs text-slate-600">
                    <th scope="col" className="py-1 pr-2">
                      {t('Field')}
                    </th>
                    <th scope="col" className="py-1 pr-2">
                      {t('Type')}
                    </th>
                    <th scope="col" className="py-1">
                      {t('Rules')}
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {s.fields.map((f) => (
                    <tr key={f.name}>
                      <td className="py-1 pr-2 font-mono text-slate-900" translate="no">
                        {f.name}
                        {f.required ? ' *' : ''}
                      </td>
                      <td className="py-1 pr-2 text-slate-700">{docType(f.type, t)}</td>
                      <td className="py-1 text-xs text-slate-600">{docRules(f.detail, t)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Card>
          </div>
        ))}
      </div>
      {schemas.pageCount > 1 ? (
        <Pagination
          page={schemas.page}
          pageCount={schemas.pageCount}
          total={schemas.total}
          pageSize={schemas.pageSize}
        />
      ) : null}
    </div>
  );
}

function Authentication({ view }: { view: ApiDocsView }) {
  const t = useT();
  const code = (text: string) => (
    <code className="font-mono" translate="no">
      {text}
    </code>
  );
  return (
    <div className="grid gap-6 lg:grid-cols-2" data-testid="authentication">
      <Card title={t('Sessions')}>
        <ul className="list-disc space-y-2 pl-5 text-sm text-slate-800">
          <li>
            {say({ login: code('POST /api/auth/login'), cookie: code('__session') }, (v) =>
              t(
                'Every call needs a session. Sign in with {login} (email, password) or on the login page; the answer sets the {cookie} cookie (HttpOnly), which every later call sends.',
                v,
              ),
            )}
          </li>
          <li>
            {say({ unauthenticated: code('Not authenticated'), forbidden: code('Forbidden') }, (v) =>
              t(
                'Without a valid session a call answers 401 {unauthenticated}; without the permission it needs, 403 {forbidden}.',
                v,
              ),
            )}
          </li>
          <li>
            {say({ auth: code('/api/auth/*'), required: code('Password change required') }, (v) =>
              t('A user with a temporary password may only call {auth} until it is changed (403 {required}).', v),
            )}
          </li>
          <li>
            {t(
              'Writes must come from this site’s own pages (the Origin or Referer header is checked): a write from another origin is refused.',
            )}
          </li>
          <li>
            {t(
              'Users limited to one company see and change that company’s rows only; another company’s row answers 404.',
            )}
          </li>
        </ul>
      </Card>
      <Card title={t('Limits and errors')}>
        <ul className="list-disc space-y-2 pl-5 text-sm text-slate-800">
          <li>
            {say(
              {
                perMinute: <strong>{view.rateLimits.perMinute}</strong>,
                perHour: <strong>{view.rateLimits.perHour}</strong>,
                tooMany: code('Too many requests'),
              },
              (v) =>
                t(
                  'Rate limits per user: {perMinute} requests a minute and {perHour} an hour, counted together with your actions on the screens. Beyond them: 429 {tooMany} with a Retry-After header. AI analyses and test pushes run one at a time per user: another while one runs answers 429 too.',
                  v,
                ),
            )}
          </li>
          <li>
            {say({ limit: code('limit'), offset: code('offset') }, (v) =>
              t(
                'Lists: {limit} (default and maximum {max}) and {offset}; the total in X-Total-Count and a Link rel="next" header while rows remain.',
                { ...v, max: view.maxLimit },
              ),
            )}
          </li>
          <li>
            {say(
              {
                example: code(
                  '{ "message": "Invalid data", "errors": [{ "field": "amount", "message": "Amount must be a positive number" }] }',
                ),
              },
              (v) => t('Bad input: 400 {example}, and nothing is changed.', v),
            )}
          </li>
          <li>
            {say({ notFound: code('Resource not found'), serverError: code('Internal server error') }, (v) =>
              t('404 {notFound}, 409 with the reason (e.g. a row still in use), 500 {serverError} without details.', v),
            )}
          </li>
          <li>
            {say(
              {
                link: (
                  <a className="font-medium text-blue-700 underline" href="/api/openapi.json" translate="no">
                    /api/openapi.json
                  </a>
                ),
              },
              (v) => t('The whole API as OpenAPI 3.1: {link}.', v),
            )}
          </li>
        </ul>
      </Card>
    </div>
  );
}

export function ApiDocumentationScreen({ view }: { view: ApiDocsView }) {
  const t = useT();
  return (
    <>
      <PageHeading title={t('API Documentation')}>
        <p className="text-sm text-slate-600" data-testid="api-version">
          {say({ version: <span translate="no">{view.version}</span> }, (v) =>
            t(
              'Version {version} · {departments, plural, one {# shared department} other {# shared departments}} · every call needs a session',
              { ...v, departments: view.departments },
            ),
          )}
        </p>
      </PageHeading>
      <TabNav
        label={t('API documentation sections')}
        current={view.tab}
        tabs={DOC_TABS.map((tab) => ({ ...tab, label: t(tab.label), to: `?tab=${tab.key}` }))}
      />
      {view.tab === 'filters' && view.filters ? <Filters filters={view.filters} maxLimit={view.maxLimit} /> : null}
      {view.tab === 'endpoints' && view.endpoints ? <Endpoints endpoints={view.endpoints} /> : null}
      {view.tab === 'schemas' && view.schemas ? <Schemas schemas={view.schemas} /> : null}
      {view.tab === 'authentication' ? <Authentication view={view} /> : null}
    </>
  );
}
