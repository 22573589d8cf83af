// The API Integration screen's markup: six tabs; Sources and Endpoints are the
// generic resource screens (Endpoints with 'Sync Now' per row), the rest are read-only views of
// computed figures and the credential form. Server-rendered; works without JavaScript.
import { Form, useLocation, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import type { Formats } from '../../platform/i18n/formats.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
import { withParams } from '../../platform/lib/url.ts';
import { apiIntegrationEndpoints, apiIntegrationSources } from './resources.ts';
import type {
  AnalysisText,
  PerformanceFindings,
  RecommendationFinding,
  TimelineItem,
} from './integration-analysis.server.ts';
import type { SyncLog } from './integration-sync.server.ts';
import { PageHeading } from '../../ui/page-heading.tsx';
import { ResourceScreen } from '../../platform/resources/resource-screen.tsx';
import { TabNav } from '../../platform/screen/action-result.tsx';
import { Pagination } from '../../ui/table/pagination.tsx';
import { ResultTable, type ResultColumn } from '../../ui/table/result-table.tsx';
import { Alert, Card, Field, inputClass } from '../../ui/form.tsx';
import type { RankedPage } from '../../platform/lib/paging.ts';
import { ShowMore } from '../../ui/table/show-more.tsx';

export const INTEGRATION_TABS = [
  { key: 'recommendations', label: msg('Recommendations') },
  { key: 'performance', label: msg('Performance') },
  { key: 'sources', label: msg('API Sources') },
  { key: 'endpoints', label: msg('Endpoints') },
  { key: 'credentials', label: msg('Credentials') },
  { key: 'logs', label: msg('Sync Logs') },
] as const;
export type IntegrationTab = (typeof INTEGRATION_TABS)[number]['key'];

export interface IntegrationsData {
  tab: IntegrationTab;
  /** A page of the ranked recommendations, with where it stands. */
  recommendations: { items: RecommendationFinding[]; page: RankedPage } | null;
  performance: PerformanceFindings | null;
  timeline: TimelineItem[] | null;
  logs: { rows: SyncLog[]; total: number; page: number; pageCount: number } | null;
  sources: { id: number; name: string; authType: string }[] | null;
}

type Answer = { result?: { error?: Record<string, string[] | null> }; intent?: string } | undefined;

const BUTTON = 'rounded-md bg-blue-700 px-3 py-2 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60';
const STATUS_CLASS: Record<string, string> = {
  success: 'text-green-800',
  partial: 'text-amber-700',
  failed: 'text-red-700',
  running: 'text-blue-800',
};
const STATUS_LABEL: Record<string, string> = {
  success: msg('Success'),
  partial: msg('Partial'),
  failed: msg('Failed'),
  running: msg('Running'),
};
// Lower case as the analysis names them; the screen capitalizes them.
const PRIORITY_LABEL: Record<string, string> = {
  critical: msg('critical priority'),
  high: msg('high priority'),
  medium: msg('medium priority'),
  low: msg('low priority'),
};
const SEVERITY_LABEL: Record<string, string> = { high: msg('high'), medium: msg('medium') };
const TYPE_LABEL: Record<string, string> = {
  automation: msg('automation'),
  reliability: msg('reliability'),
  configuration: msg('configuration'),
};
const DIRECTION_LABEL: Record<string, string> = { inbound: msg('inbound'), outbound: msg('outbound') };
const PRIORITY_CLASS: Record<string, string> = {
  critical: 'text-red-700',
  high: 'text-amber-700',
  medium: 'text-blue-700',
  low: 'text-slate-600',
};
const seconds = (f: Formats, ms: number | null) => (ms === null ? '—' : `${f.number(ms / 1000, { min: 1, max: 1 })}s`);
/** A share computed to a tenth: '12.5%', '100%'. */
const share = (f: Formats, n: number) => f.percent(n, Number.isInteger(n) ? 0 : 1);

/**
 * A text the analysis wrote from live figures (a message and its values: names, counts) in the
 * reader's words.
 */
const said = (t: Translate, text: AnalysisText) => t(text.id, text.values);

/** Table cells in the reader's formats (a column's cell is a function of its row, not a component). */
function Num({ value }: { value: number }) {
  return <>{useFormats().number(value)}</>;
}

function Seconds({ ms }: { ms: number | null }) {
  return <>{seconds(useFormats(), ms)}</>;
}
const LIST_PARAMS = ['page', 'q', 'sort', 'dir', 'new', 'edit', 'sourceId'];

function Tabs({ current }: { current: IntegrationTab }) {
  const { search } = useLocation();
  const t = useT();
  return (
    <TabNav
      label={t('API integration sections')}
      current={current}
      tabs={INTEGRATION_TABS.map((tab) => ({
        key: tab.key,
        label: t(tab.label),
        to: withParams(search, { tab: tab.key, ...Object.fromEntries(LIST_PARAMS.map((p) => [p, null])) }),
      }))}
    />
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
      {children}
    </p>
  );
}

function Status({ status }: { status: string }) {
  const t = useT();
  const label = STATUS_LABEL[status];
  return <span className={`font-medium ${STATUS_CLASS[status] ?? 'text-slate-700'}`}>{label ? t(label) : status}</span>;
}

/** A column heading in the reader's language (the tables' columns are declared in English). */
function useHeadings<R>(columns: ResultColumn<R>[]): ResultColumn<R>[] {
  const t = useT();
  return columns.map((column) => ({ ...column, heading: t(column.heading) }));
}

function Direction({ value }: { value: string }) {
  const t = useT();
  const label = DIRECTION_LABEL[value];
  return <>{label ? t(label) : value}</>;
}

function RecommendationsTab({ items, page }: { items: RecommendationFinding[]; page: RankedPage }) {
  const f = useFormats();
  const t = useT();
  if (page.total === 0)
    return (
      <Empty>{t('No recommendations: the syncs run well and no table is typed in by hand month after month.')}</Empty>
    );
  return (
    <>
      <ul className="grid gap-4 lg:grid-cols-2">
        {items.map((r) => (
          <li key={r.id} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="recommendation">
            <div className="flex flex-wrap items-center gap-2 text-xs">
              <span className={`font-semibold capitalize ${PRIORITY_CLASS[r.priority] ?? ''}`}>
                {PRIORITY_LABEL[r.priority] ? t(PRIORITY_LABEL[r.priority]!) : r.priority}
              </span>
              <span className="rounded border border-slate-300 px-1.5 capitalize text-slate-700">
                {TYPE_LABEL[r.type] ? t(TYPE_LABEL[r.type]!) : r.type}
              </span>
              {r.companyName ? (
                <span className="text-slate-600" translate="no">
                  {r.companyName}
                </span>
              ) : (
                <span className="text-slate-600">{t('Group')}</span>
              )}
              <span className="text-slate-600">{t('Confidence {value}', { value: share(f, r.confidence) })}</span>
            </div>
            <h3 className="mt-2 font-semibold text-slate-900">{said(t, r.title)}</h3>
            <p className="mt-1 text-sm text-slate-700">{said(t, r.description)}</p>
            <p className="mt-1 text-xs text-slate-600">{said(t, r.reasoning)}</p>
            <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
              {[
                [msg('Hours saved / week'), f.number(r.estimatedImpact.timesSaved, { min: 1, max: 1 })],
                [msg('Cost reduction'), share(f, r.estimatedImpact.costReduction)],
                [msg('Data accuracy'), share(f, r.estimatedImpact.dataAccuracy)],
                [msg('Automation level'), share(f, r.estimatedImpact.automationLevel)],
              ].map(([label, value]) => (
                <div key={label}>
                  <dt className="text-xs text-slate-600">{t(label!)}</dt>
                  <dd className="font-semibold text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
            <h4 className="mt-3 text-sm font-medium text-slate-800">{t('Potential benefits')}</h4>
            <ul className="list-disc pl-5 text-sm text-slate-700">
              {r.potentialBenefits.map((b) => (
                <li key={b.id}>{said(t, b)}</li>
              ))}
            </ul>
            <h4 className="mt-3 text-sm font-medium text-slate-800">{t('Suggested actions')}</h4>
            <ol className="list-decimal pl-5 text-sm text-slate-700">
              {r.suggestedActions.map((a) => (
                <li key={a.id}>{said(t, a)}</li>
              ))}
            </ol>
            {r.apiEndpoints.length ? (
              <>
                <h4 className="mt-3 text-sm font-medium text-slate-800">{t('Recommended endpoints')}</h4>
                <ul className="text-sm text-slate-700">
                  {r.apiEndpoints.map((e) => (
                    <li key={`${e.method}${e.endpoint}`} className="font-mono text-xs">
                      <span translate="no">
                        {e.method} {e.endpoint}
                      </span>{' '}
                      · <Direction value={e.direction} /> → <span translate="no">{e.targetTable}</span> ·{' '}
                      <span translate="no">{e.frequency}</span>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <ShowMore page={page} noun={t('recommendations')} />
    </>
  );
}

const TIMELINE_COLUMNS: ResultColumn<TimelineItem>[] = [
  {
    heading: msg('Time'),
    cell: (t) => <DateTime value={t.timestamp} kind="instant" />,
    className: 'whitespace-nowrap',
  },
  { heading: msg('Endpoint'), cell: (t) => <span translate="no">{t.endpointName}</span> },
  { heading: msg('Method'), cell: (t) => <span translate="no">{t.method}</span> },
  { heading: msg('Direction'), cell: (t) => <Direction value={t.direction} />, className: 'capitalize' },
  { heading: msg('Status'), cell: (t) => <Status status={t.status} /> },
  { heading: msg('Response time'), cell: (t) => <Seconds ms={t.responseTime} />, className: 'tabular-nums' },
  { heading: msg('Records'), cell: (t) => <Num value={t.recordsProcessed} />, className: 'tabular-nums' },
  {
    heading: msg('Score'),
    cell: (t) => (t.performanceScore === null ? '—' : String(t.performanceScore)),
    className: 'tabular-nums',
  },
];

function PerformanceTab({ performance, timeline }: { performance: PerformanceFindings; timeline: TimelineItem[] }) {
  const f = useFormats();
  const t = useT();
  const timelineColumns = useHeadings(TIMELINE_COLUMNS);
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="performance-tiles">
        {[
          [msg('Total requests'), f.number(performance.totalRequests)],
          [msg('Success rate'), f.percent(performance.successRate, 1)],
          [msg('Average response time'), seconds(f, performance.avgResponseTime)],
          [msg('Performance score'), `${performance.performanceScore}/100`],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
            <dt className="text-xs text-slate-600">{t(label!)}</dt>
            <dd className="text-lg font-semibold text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-slate-600">
        {t('The last {days} days of sync runs. Score = {formula}.', {
          days: performance.windowDays,
          formula: t(performance.scoreFormula),
        })}
      </p>
      {performance.issues.length ? (
        <Card title={t('Performance issues')}>
          <ul className="space-y-2 text-sm" data-testid="performance-issues">
            {performance.issues.map((issue) => (
              <li key={issue.type}>
                <span className={`font-semibold capitalize ${PRIORITY_CLASS[issue.severity] ?? ''}`}>
                  {SEVERITY_LABEL[issue.severity] ? t(SEVERITY_LABEL[issue.severity]!) : issue.severity}
                </span>
                : {said(t, issue.description)} (<span translate="no">{issue.affectedEndpoints.join(', ')}</span>).{' '}
                {said(t, issue.recommendation)}.
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <h2 className="text-base font-semibold text-slate-900">{t('Activity timeline')}</h2>
      {timeline.length ? (
        <ResultTable
          label={t('Activity timeline')}
          columns={timelineColumns}
          rows={timeline}
          rowKey={(t) => String(t.id)}
          rowTestId="timeline-item"
        />
      ) : (
        <Empty>{t('No sync has run yet.')}</Empty>
      )}
    </div>
  );
}

const LOG_COLUMNS: ResultColumn<SyncLog>[] = [
  {
    heading: msg('Started'),
    cell: (l) => <DateTime value={l.startedAt} kind="instant" />,
    className: 'whitespace-nowrap',
  },
  { heading: msg('Source'), cell: (l) => (l.sourceName ? <span translate="no">{l.sourceName}</span> : '—') },
  {
    heading: msg('Endpoint'),
    cell: (l) => <span translate="no">{l.endpointName ?? `#${l.endpointId}`}</span>,
  },
  { heading: msg('Status'), cell: (l) => <Status status={l.status} /> },
  { heading: msg('Processed'), cell: (l) => <Num value={l.recordsProcessed} />, className: 'tabular-nums' },
  { heading: msg('Created'), cell: (l) => <Num value={l.recordsCreated} />, className: 'tabular-nums' },
  {
    heading: msg('Updated'),
    cell: (l) => (
      <>
        <Num value={l.recordsUpdated} />
        {l.recordsUnchanged ? <Unchanged count={l.recordsUnchanged} /> : null}
      </>
    ),
    className: 'tabular-nums',
  },
  { heading: msg('Skipped'), cell: (l) => <Num value={l.recordsSkipped} />, className: 'tabular-nums' },
  {
    heading: msg('Duration'),
    cell: (l) => (l.completedAt ? <Seconds ms={l.syncDuration} /> : <InProgress />),
    className: 'tabular-nums',
  },
  { heading: msg('Error'), cell: (l) => <LogMessage log={l} />, detail: true },
];

function Unchanged({ count }: { count: number }) {
  const t = useT();
  const f = useFormats();
  return <span className="block text-xs text-slate-500">{t('{count} unchanged', { count: f.number(count) })}</span>;
}

function InProgress() {
  return <>{useT()('In progress')}</>;
}

/** The run's error, and the records it skipped with why (the first ones the log keeps). */
function LogMessage({ log }: { log: SyncLog }) {
  const f = useFormats();
  const t = useT();
  const skipped = log.syncData?.errors ?? [];
  // The log's lines are kept as the sync wrote them.
  if (!skipped.length) return log.errorMessage ? <span translate="no">{log.errorMessage}</span> : null;
  const values = { count: log.recordsSkipped, shown: f.number(skipped.length), total: f.number(log.recordsSkipped) };
  return (
    <>
      {log.status === 'failed' ? (
        <span className="block" translate="no">
          {log.errorMessage}
        </span>
      ) : null}
      <details data-testid="skipped-records">
        <summary className="cursor-pointer">
          {skipped.length < log.recordsSkipped
            ? t(
                '{count, plural, one {{total} skipped record (the first {shown} of {total})} other {{total} skipped records (the first {shown} of {total})}}',
                values,
              )
            : t('{count, plural, one {{total} skipped record} other {{total} skipped records}}', values)}
        </summary>
        <ul className="mt-1 list-disc pl-5 text-xs" translate="no">
          {skipped.map((e, i) => (
            <li key={i}>{`${e.record}: ${e.message}`}</li>
          ))}
        </ul>
      </details>
    </>
  );
}

function LogsTab({ logs }: { logs: NonNullable<IntegrationsData['logs']> }) {
  const t = useT();
  const columns = useHeadings(LOG_COLUMNS);
  if (logs.total === 0) return <Empty>{t('No sync has run yet.')}</Empty>;
  return (
    <Card className="!p-0">
      <ResultTable
        label={t('Sync logs')}
        columns={columns}
        rows={logs.rows}
        rowKey={(l) => String(l.id)}
        rowTestId="sync-log"
      />
      <Pagination page={logs.page} pageCount={logs.pageCount} total={logs.total} pageSize={25} />
    </Card>
  );
}

function CredentialsTab({ sources, answer }: { sources: NonNullable<IntegrationsData['sources']>; answer: Answer }) {
  const t = useT();
  const busy = useNavigation().state === 'submitting';
  const errors = answer?.intent === 'credential' || answer?.result ? (answer?.result?.error ?? {}) : {};
  // The messages the form's own declarations wrote; a service's are shown as they came.
  const error = (name: string) => errors[name]?.map((message) => t(message)) ?? null;
  return (
    <Card title={t('Add credential')}>
      <Alert tone="info" title={t('Stored encrypted')}>
        {t('Credentials are encrypted and stored securely. They are never shown again, not even to admins.')}
      </Alert>
      {error('') ? (
        <div className="mt-3">
          <Alert title={t('Error')}>{error('')![0]}</Alert>
        </div>
      ) : null}
      {sources.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">{t('Add an API source first.')}</p>
      ) : (
        <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" aria-label={t('Add credential')}>
          <input type="hidden" name="intent" value="credential" />
          <Field label={t('Source')} id="credential-source" error={error('sourceId')}>
            <select id="credential-source" name="sourceId" className={inputClass} required defaultValue="">
              <option value="">{t('Select source')}</option>
              {sources.map((s) => (
                <option key={s.id} value={s.id} translate="no">
                  {s.name} ({s.authType.replace('_', ' ')})
                </option>
              ))}
            </select>
          </Field>
          <Field
            label={t('Credential key')}
            id="credential-key"
            error={error('credentialKey')}
            hint={t(
              'token (bearer), access_token (OAuth 2), username and password (basic), or the header name for an API key',
            )}
          >
            <input
              id="credential-key"
              name="credentialKey"
              className={inputClass}
              maxLength={100}
              required
              autoComplete="off"
            />
          </Field>
          <Field label={t('Credential value')} id="credential-value" error={error('credentialValue')}>
            <input
              id="credential-value"
              name="credentialValue"
              type="password"
              className={inputClass}
              maxLength={10000}
              required
              autoComplete="new-password"
            />
          </Field>
          <Field label={t('Description')} id="credential-description" error={error('description')}>
            <input id="credential-description" name="description" className={inputClass} maxLength={2000} />
          </Field>
          <div className="sm:col-span-2 flex justify-end">
            <button type="submit" className={BUTTON} disabled={busy}>
              {t('Add credential')}
            </button>
          </div>
        </Form>
      )}
    </Card>
  );
}

function SyncNow({ row }: { row: Record<string, unknown> }) {
  const t = useT();
  const navigation = useNavigation();
  const busy =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'sync' &&
    navigation.formData?.get('id') === String(row.id);
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="sync" />
      <input type="hidden" name="id" value={String(row.id)} />
      <button
        type="submit"
        className="whitespace-nowrap rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60"
        disabled={busy || row.isActive === false}
        aria-label={t('Sync Now: {name}', { name: String(row.name) })}
      >
        {busy ? t('Starting…') : t('Sync Now')}
      </button>
    </Form>
  );
}

export function IntegrationsScreen({ data, answer }: { data: IntegrationsData; answer: Answer }) {
  const t = useT();
  if (data.tab === 'sources' || data.tab === 'endpoints') {
    const endpoints = data.tab === 'endpoints';
    return (
      <ResourceScreen
        def={endpoints ? apiIntegrationEndpoints : apiIntegrationSources}
        title={t('API Integration')}
        keep={{ tab: data.tab }}
        extraCell={endpoints ? { label: msg('Sync'), render: (row) => <SyncNow row={row} /> } : undefined}
      >
        <Tabs current={data.tab} />
      </ResourceScreen>
    );
  }
  return (
    <div>
      <PageHeading title={t('API Integration')} />
      <Tabs current={data.tab} />
      {data.tab === 'recommendations' && data.recommendations ? (
        <RecommendationsTab items={data.recommendations.items} page={data.recommendations.page} />
      ) : null}
      {data.tab === 'performance' && data.performance && data.timeline ? (
        <PerformanceTab performance={data.performance} timeline={data.timeline} />
      ) : null}
      {data.tab === 'credentials' && data.sources ? <CredentialsTab sources={data.sources} answer={answer} /> : null}
      {data.tab === 'logs' && data.logs ? <LogsTab logs={data.logs} /> : null}
    </div>
  );
}
