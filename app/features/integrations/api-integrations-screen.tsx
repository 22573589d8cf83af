// The API Integration screen's markup: six tabs; Sources and Endpoints are the
// generic resource screens (Endpoints with 'Sync Now' per row), the rest are read-only views of
// computed figures and the credential form. Server-rendered; works without JavaScript.
import { Form, useLocation, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { formatInstant } from '../../platform/lib/format.ts';
import { withParams } from '../../platform/lib/url.ts';
import { apiIntegrationEndpoints, apiIntegrationSources } from './resources.ts';
import type { PerformanceAnalysis, Recommendation, TimelineItem } from './integration-analysis.server.ts';
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
  { key: 'recommendations', label: 'Recommendations' },
  { key: 'performance', label: 'Performance' },
  { key: 'sources', label: 'API Sources' },
  { key: 'endpoints', label: 'Endpoints' },
  { key: 'credentials', label: 'Credentials' },
  { key: 'logs', label: 'Sync Logs' },
] as const;
export type IntegrationTab = (typeof INTEGRATION_TABS)[number]['key'];

export interface IntegrationsData {
  tab: IntegrationTab;
  /** A page of the ranked recommendations, with where it stands. */
  recommendations: { items: Recommendation[]; page: RankedPage } | null;
  performance: PerformanceAnalysis | null;
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
  success: 'Success',
  partial: 'Partial',
  failed: 'Failed',
  running: 'Running',
};
const PRIORITY_CLASS: Record<string, string> = {
  critical: 'text-red-700',
  high: 'text-amber-700',
  medium: 'text-blue-700',
  low: 'text-slate-600',
};
const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)}s`);
const LIST_PARAMS = ['page', 'q', 'sort', 'dir', 'new', 'edit', 'sourceId'];

function Tabs({ current }: { current: IntegrationTab }) {
  const { search } = useLocation();
  return (
    <TabNav
      label="API integration sections"
      current={current}
      tabs={INTEGRATION_TABS.map((t) => ({
        key: t.key,
        label: t.label,
        to: withParams(search, { tab: t.key, ...Object.fromEntries(LIST_PARAMS.map((p) => [p, null])) }),
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
  return (
    <span className={`font-medium ${STATUS_CLASS[status] ?? 'text-slate-700'}`}>{STATUS_LABEL[status] ?? status}</span>
  );
}

function RecommendationsTab({ items, page }: { items: Recommendation[]; page: RankedPage }) {
  if (page.total === 0)
    return <Empty>No recommendations: the syncs run well and no table is typed in by hand month after month.</Empty>;
  return (
    <>
      <ul className="grid gap-4 lg:grid-cols-2">
        {items.map((r) => (
          <li key={r.id} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="recommendation">
            <div className="flex flex-wrap items-center gap-2 text-xs">
              <span className={`font-semibold capitalize ${PRIORITY_CLASS[r.priority] ?? ''}`}>
                {r.priority} priority
              </span>
              <span className="rounded border border-slate-300 px-1.5 capitalize text-slate-700">{r.type}</span>
              <span className="text-slate-600">{r.companyName ?? 'Group'}</span>
              <span className="text-slate-600">Confidence {r.confidence}%</span>
            </div>
            <h3 className="mt-2 font-semibold text-slate-900">{r.title}</h3>
            <p className="mt-1 text-sm text-slate-700">{r.description}</p>
            <p className="mt-1 text-xs text-slate-600">{r.reasoning}</p>
            <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
              {[
                ['Hours saved / week', r.estimatedImpact.timesSaved.toFixed(1)],
                ['Cost reduction', `${r.estimatedImpact.costReduction}%`],
                ['Data accuracy', `${r.estimatedImpact.dataAccuracy}%`],
                ['Automation level', `${r.estimatedImpact.automationLevel}%`],
              ].map(([label, value]) => (
                <div key={label}>
                  <dt className="text-xs text-slate-600">{label}</dt>
                  <dd className="font-semibold text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
            <h4 className="mt-3 text-sm font-medium text-slate-800">Potential benefits</h4>
            <ul className="list-disc pl-5 text-sm text-slate-700">
              {r.potentialBenefits.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
            <h4 className="mt-3 text-sm font-medium text-slate-800">Suggested actions</h4>
            <ol className="list-decimal pl-5 text-sm text-slate-700">
              {r.suggestedActions.map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ol>
            {r.apiEndpoints.length ? (
              <>
                <h4 className="mt-3 text-sm font-medium text-slate-800">Recommended endpoints</h4>
                <ul className="text-sm text-slate-700">
                  {r.apiEndpoints.map((e) => (
                    <li key={`${e.method}${e.endpoint}`} className="font-mono text-xs">
                      {e.method} {e.endpoint} · {e.direction} → {e.targetTable} · {e.frequency}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <ShowMore page={page} noun="recommendations" />
    </>
  );
}

const TIMELINE_COLUMNS: ResultColumn<TimelineItem>[] = [
  { heading: 'Time', cell: (t) => formatInstant(t.timestamp), className: 'whitespace-nowrap' },
  { heading: 'Endpoint', cell: (t) => t.endpointName },
  { heading: 'Method', cell: (t) => t.method },
  { heading: 'Direction', cell: (t) => t.direction, className: 'capitalize' },
  { heading: 'Status', cell: (t) => <Status status={t.status} /> },
  { heading: 'Response time', cell: (t) => seconds(t.responseTime), className: 'tabular-nums' },
  { heading: 'Records', cell: (t) => t.recordsProcessed.toLocaleString('en-US'), className: 'tabular-nums' },
  {
    heading: 'Score',
    cell: (t) => (t.performanceScore === null ? '—' : String(t.performanceScore)),
    className: 'tabular-nums',
  },
];

function PerformanceTab({ performance, timeline }: { performance: PerformanceAnalysis; timeline: TimelineItem[] }) {
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="performance-tiles">
        {[
          ['Total requests', performance.totalRequests.toLocaleString('en-US')],
          ['Success rate', `${performance.successRate.toFixed(1)}%`],
          ['Average response time', seconds(performance.avgResponseTime)],
          ['Performance score', `${performance.performanceScore}/100`],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-lg font-semibold text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-slate-600">
        The last {performance.windowDays} days of sync runs. Score = {performance.scoreFormula}.
      </p>
      {performance.issues.length ? (
        <Card title="Performance issues">
          <ul className="space-y-2 text-sm" data-testid="performance-issues">
            {performance.issues.map((issue) => (
              <li key={issue.type}>
                <span className={`font-semibold capitalize ${PRIORITY_CLASS[issue.severity] ?? ''}`}>
                  {issue.severity}
                </span>
                : {issue.description} ({issue.affectedEndpoints.join(', ')}). {issue.recommendation}.
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <h2 className="text-base font-semibold text-slate-900">Activity timeline</h2>
      {timeline.length ? (
        <ResultTable
          label="Activity timeline"
          columns={TIMELINE_COLUMNS}
          rows={timeline}
          rowKey={(t) => String(t.id)}
          rowTestId="timeline-item"
        />
      ) : (
        <Empty>No sync has run yet.</Empty>
      )}
    </div>
  );
}

const LOG_COLUMNS: ResultColumn<SyncLog>[] = [
  { heading: 'Started', cell: (l) => formatInstant(l.startedAt), className: 'whitespace-nowrap' },
  { heading: 'Source', cell: (l) => l.sourceName ?? '—' },
  { heading: 'Endpoint', cell: (l) => l.endpointName ?? `#${l.endpointId}` },
  { heading: 'Status', cell: (l) => <Status status={l.status} /> },
  { heading: 'Processed', cell: (l) => l.recordsProcessed.toLocaleString('en-US'), className: 'tabular-nums' },
  { heading: 'Created', cell: (l) => l.recordsCreated.toLocaleString('en-US'), className: 'tabular-nums' },
  {
    heading: 'Updated',
    cell: (l) => (
      <>
        {l.recordsUpdated.toLocaleString('en-US')}
        {l.recordsUnchanged ? (
          <span className="block text-xs text-slate-500">{`${l.recordsUnchanged.toLocaleString('en-US')} unchanged`}</span>
        ) : null}
      </>
    ),
    className: 'tabular-nums',
  },
  { heading: 'Skipped', cell: (l) => l.recordsSkipped.toLocaleString('en-US'), className: 'tabular-nums' },
  {
    heading: 'Duration',
    cell: (l) => (l.completedAt ? seconds(l.syncDuration) : 'In progress'),
    className: 'tabular-nums',
  },
  { heading: 'Error', cell: (l) => <LogMessage log={l} />, detail: true },
];

/** The run's error, and the records it skipped with why (the first ones the log keeps). */
function LogMessage({ log }: { log: SyncLog }) {
  const skipped = log.syncData?.errors ?? [];
  if (!skipped.length) return <>{log.errorMessage ?? ''}</>;
  const kept =
    skipped.length < log.recordsSkipped
      ? ` (the first ${skipped.length} of ${log.recordsSkipped.toLocaleString('en-US')})`
      : '';
  return (
    <>
      {log.status === 'failed' ? <span className="block">{log.errorMessage}</span> : null}
      <details data-testid="skipped-records">
        <summary className="cursor-pointer">{`${log.recordsSkipped.toLocaleString('en-US')} skipped record${log.recordsSkipped === 1 ? '' : 's'}${kept}`}</summary>
        <ul className="mt-1 list-disc pl-5 text-xs">
          {skipped.map((e, i) => (
            <li key={i}>{`${e.record}: ${e.message}`}</li>
          ))}
        </ul>
      </details>
    </>
  );
}

function LogsTab({ logs }: { logs: NonNullable<IntegrationsData['logs']> }) {
  if (logs.total === 0) return <Empty>No sync has run yet.</Empty>;
  return (
    <Card className="!p-0">
      <ResultTable
        label="Sync logs"
        columns={LOG_COLUMNS}
        rows={logs.rows}
        rowKey={(l) => String(l.id)}
        rowTestId="sync-log"
      />
      <Pagination page={logs.page} pageCount={logs.pageCount} total={logs.total} pageSize={25} />
    </Card>
  );
}

function CredentialsTab({ sources, answer }: { sources: NonNullable<IntegrationsData['sources']>; answer: Answer }) {
  const busy = useNavigation().state === 'submitting';
  const errors = answer?.intent === 'credential' || answer?.result ? (answer?.result?.error ?? {}) : {};
  const error = (name: string) => errors[name] ?? null;
  return (
    <Card title="Add credential">
      <Alert tone="info" title="Stored encrypted">
        Credentials are encrypted and stored securely. They are never shown again, not even to admins.
      </Alert>
      {error('') ? (
        <div className="mt-3">
          <Alert title="Error">{error('')![0]}</Alert>
        </div>
      ) : null}
      {sources.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">Add an API source first.</p>
      ) : (
        <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" aria-label="Add credential">
          <input type="hidden" name="intent" value="credential" />
          <Field label="Source" id="credential-source" error={error('sourceId')}>
            <select id="credential-source" name="sourceId" className={inputClass} required defaultValue="">
              <option value="">Select source</option>
              {sources.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.authType.replace('_', ' ')})
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Credential key"
            id="credential-key"
            error={error('credentialKey')}
            hint="token (bearer), access_token (OAuth 2), username and password (basic), or the header name for an API key"
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
          <Field label="Credential value" id="credential-value" error={error('credentialValue')}>
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
          <Field label="Description" id="credential-description" error={error('description')}>
            <input id="credential-description" name="description" className={inputClass} maxLength={2000} />
          </Field>
          <div className="sm:col-span-2 flex justify-end">
            <button type="submit" className={BUTTON} disabled={busy}>
              Add credential
            </button>
          </div>
        </Form>
      )}
    </Card>
  );
}

function SyncNow({ row }: { row: Record<string, unknown> }) {
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
        aria-label={`Sync Now: ${String(row.name)}`}
      >
        {busy ? 'Starting…' : 'Sync Now'}
      </button>
    </Form>
  );
}

export function IntegrationsScreen({ data, answer }: { data: IntegrationsData; answer: Answer }) {
  if (data.tab === 'sources' || data.tab === 'endpoints') {
    const endpoints = data.tab === 'endpoints';
    return (
      <ResourceScreen
        def={endpoints ? apiIntegrationEndpoints : apiIntegrationSources}
        title="API Integration"
        keep={{ tab: data.tab }}
        extraCell={endpoints ? { label: 'Sync', render: (row) => <SyncNow row={row} /> } : undefined}
      >
        <Tabs current={data.tab} />
      </ResourceScreen>
    );
  }
  return (
    <div>
      <PageHeading title="API Integration" />
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
