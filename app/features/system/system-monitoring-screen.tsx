// /system-monitoring: the overall health tile and the CPU, memory
// and database tiles with 24-hour sparklines, and three tabs in the URL: Error Tracking (with
// Resolve: a panel without JavaScript, a dialog with it; notes required), Recovery Actions and
// System Metrics. With JavaScript the figures refresh every 10 s while the tab is visible.
import { Form, Link, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import type { RecoveryActionView, SystemErrorView, SystemHealth } from './system-monitoring.server.ts';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import type { Formats } from '../../platform/i18n/formats.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { sizeText } from '../../platform/i18n/units.ts';
import { HEALTH_LABELS, healthDetail } from './health-verdict.ts';
import { useHydrated } from '../../platform/lib/use-hydrated.ts';
import { Sparkline } from '../../ui/chart/sparkline.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { FormError, TabNav, useCloseUrl, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { useRefreshEvery } from '../../platform/screen/use-refresh.ts';
import { Pagination } from '../../ui/table/pagination.tsx';
import { Card, Field, inputClass } from '../../ui/form.tsx';
import { FormPanel } from '../../ui/form-panel.tsx';

/** Errors and recovery actions per page. */
export const MONITORING_PAGE_SIZE = 20;

/** Health refreshes every 10 s; errors and recovery actions refresh with it, more often than they need (30 s). */
export const MONITORING_REFRESH_MS = 10_000;

export const MONITORING_TABS = [
  { key: 'errors', label: msg('Error Tracking') },
  { key: 'recovery', label: msg('Recovery Actions') },
  { key: 'metrics', label: msg('System Metrics') },
] as const;
export type MonitoringTab = (typeof MONITORING_TABS)[number]['key'];

export type SystemErrorRow = SystemErrorView;

export interface MonitoringData {
  tab: MonitoringTab;
  health: SystemHealth;
  errors: { rows: SystemErrorRow[]; total: number; page: number; pageCount: number } | null;
  recovery: { rows: RecoveryActionView[]; total: number; page: number; pageCount: number } | null;
  /** The error whose Resolve form is open (?resolve=ID). */
  resolving: SystemErrorRow | null;
}

const SEVERITY_CLASS: Record<string, string> = {
  critical: 'bg-red-100 text-red-800',
  high: 'bg-orange-100 text-orange-900',
  medium: 'bg-amber-50 text-amber-900',
  low: 'bg-slate-100 text-slate-700',
};

const RECOVERY_CLASS: Record<string, string> = {
  completed: 'bg-green-100 text-green-800',
  failed: 'bg-red-100 text-red-800',
  executing: 'bg-blue-100 text-blue-800',
};

/** A stored severity or recovery status as the badge reads it. */
const BADGE_LABELS: Record<string, string> = {
  critical: msg('critical'),
  high: msg('high'),
  medium: msg('medium'),
  low: msg('low'),
  completed: msg('completed'),
  failed: msg('failed'),
  executing: msg('executing'),
  other: msg('other'),
};

/** Response times in seconds with one decimal. */
const seconds = (f: Formats, ms: number | null) => (ms === null ? '—' : `${f.number(ms / 1000, { min: 1, max: 1 })} s`);

function Tile({
  label,
  value,
  detail,
  tone = 'text-slate-900',
  children,
  testId,
}: {
  label: string;
  value: string;
  detail: React.ReactNode;
  tone?: string;
  children?: React.ReactNode;
  testId: string;
}) {
  return (
    <section
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      data-testid={testId}
      aria-label={label}
    >
      <h2 className="text-sm font-medium text-slate-600">{label}</h2>
      <p className={`mt-2 text-2xl font-bold tabular-nums ${tone}`}>{value}</p>
      <p className="mt-1 text-xs text-slate-600">{detail}</p>
      {children}
    </section>
  );
}

function Tiles({ health }: { health: MonitoringData['health'] }) {
  const { cpu, memory, database } = health.details;
  const overall = HEALTH_LABELS[health.overall];
  const f = useFormats();
  const t = useT();
  const databaseDetail = [
    database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite',
    database.connectionCount === null
      ? null
      : t('{count, plural, one {# connection} other {# connections}}', { count: database.connectionCount }),
    database.size === null ? null : sizeText(t, f, database.size),
  ];
  return (
    <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Tile
        testId="tile-overall"
        label={t('Overall Health')}
        value={t(overall.label)}
        tone={overall.tone}
        detail={healthDetail(health, f, t)}
      />
      <Tile
        testId="tile-cpu"
        label={t('CPU')}
        value={f.percent(cpu.usage, 1)}
        detail={t('Load {load} · {cores, plural, one {# core} other {# cores}}', {
          load: cpu.loadAverage.map((n) => f.number(n)).join(' / '),
          cores: cpu.cores,
        })}
      >
        <Sparkline label={t('CPU over 24 hours')} unit="%" max={100} values={health.history.map((h) => h.cpu)} />
      </Tile>
      <Tile
        testId="tile-memory"
        label={t('Memory')}
        value={f.percent(memory.percentage, 1)}
        detail={t('{used} of {total}', { used: sizeText(t, f, memory.used), total: sizeText(t, f, memory.total) })}
      >
        <Sparkline label={t('Memory over 24 hours')} unit="%" max={100} values={health.history.map((h) => h.memory)} />
      </Tile>
      <Tile
        testId="tile-database"
        label={t('Database')}
        value={t('{value} ms', { value: f.number(database.responseTime) })}
        detail={<span translate="no">{databaseDetail.filter((part) => part !== null).join(' · ')}</span>}
      >
        <Sparkline
          label={t('Database answer time over 24 hours')}
          unit=" ms"
          values={health.history.map((h) => h.databaseResponseTime)}
        />
      </Tile>
    </div>
  );
}

function ErrorTracking({ errors, base }: { errors: NonNullable<MonitoringData['errors']>; base: string }) {
  const f = useFormats();
  const t = useT();
  if (errors.rows.length === 0)
    return (
      <Card>
        <p className="text-sm text-slate-600">{t('No errors found')}</p>
      </Card>
    );
  return (
    <>
      <ul className="space-y-3" data-testid="system-errors">
        {errors.rows.map((e) => (
          <li
            key={e.id}
            className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
            data-testid="system-error"
          >
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 text-sm">
                  <span
                    className={`rounded px-1.5 py-0.5 text-xs font-medium ${SEVERITY_CLASS[e.severity] ?? SEVERITY_CLASS.low}`}
                  >
                    {t(BADGE_LABELS[e.severity] ?? e.severity)}
                  </span>
                  <span className="font-medium text-slate-900" translate="no">
                    {e.errorType}
                  </span>
                  {e.isResolved ? (
                    <span className="rounded bg-green-100 px-1.5 py-0.5 text-xs font-medium text-green-800">
                      {t('Resolved')}
                    </span>
                  ) : null}
                </p>
                <p className="mt-1 break-words text-sm text-slate-800" translate="no">
                  {e.message}
                </p>
                <p className="mt-1 text-xs text-slate-600">
                  <span translate="no">
                    {e.method ?? '—'} {e.endpoint ?? '—'}
                  </span>{' '}
                  · {t('{count, plural, one {# occurrence} other {# occurrences}}', { count: e.occurrenceCount })} ·{' '}
                  {t('{count, plural, one {# affected user} other {# affected users}}', { count: e.affectedUsers })} ·{' '}
                  {t('last')} <DateTime value={e.lastOccurrence} kind="instant" />
                </p>
                {e.isResolved && e.resolution ? (
                  <p className="mt-1 text-xs text-slate-700">
                    {e.resolvedAt
                      ? t('Resolved by {name} on {time}: {resolution}', {
                          name: e.resolvedByName ?? t('a deleted user'),
                          time: f.instant(e.resolvedAt),
                          resolution: e.resolution,
                        })
                      : t('Resolved by {name}: {resolution}', {
                          name: e.resolvedByName ?? t('a deleted user'),
                          resolution: e.resolution,
                        })}
                  </p>
                ) : null}
                {e.stack ? (
                  <details className="mt-2 text-xs">
                    <summary className="cursor-pointer text-slate-600 hover:text-slate-900">{t('Stack trace')}</summary>
                    <pre
                      className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-slate-800"
                      translate="no"
                    >
                      {e.stack}
                    </pre>
                  </details>
                ) : null}
              </div>
              {!e.isResolved ? (
                <Link
                  to={`${base}&resolve=${e.id}`}
                  preventScrollReset
                  className="shrink-0 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
                  aria-label={t('Resolve error {type}: {message}', {
                    type: e.errorType,
                    message: e.message.slice(0, 80),
                  })}
                >
                  {t('Resolve')}
                </Link>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      <Pagination
        page={errors.page}
        pageCount={errors.pageCount}
        total={errors.total}
        pageSize={MONITORING_PAGE_SIZE}
      />
    </>
  );
}

function ResolveForm({ error, answer }: { error: SystemErrorRow; answer: ActionAnswer | null }) {
  const closeTo = useCloseUrl();
  const [notes, setNotes] = useState('');
  const busy = useNavigation().state === 'submitting';
  const hydrated = useHydrated();
  const t = useT();
  const fieldError = answer?.intent === 'resolve' ? answer.result?.error?.resolution?.[0] : undefined;
  const formErrors = answer?.intent === 'resolve' ? (answer.result?.error?.[''] ?? undefined) : undefined;
  return (
    <FormPanel title={t('Resolve Error')} closeTo={closeTo}>
      <p className="mb-3 text-sm text-slate-700">
        <span className="font-medium" translate="no">
          {error.errorType}
        </span>
        : <span translate="no">{error.message}</span>
      </p>
      <FormError errors={formErrors?.map((text) => t(text))} />
      <Form method="post" preventScrollReset aria-label={t('Resolve error')}>
        <input type="hidden" name="intent" value="resolve" />
        <input type="hidden" name="id" value={error.id} />
        <Field
          label={t('Resolution notes')}
          id="resolution"
          error={fieldError ? t(fieldError) : undefined}
          hint={t('What was done about it (required)')}
        >
          <textarea
            id="resolution"
            name="resolution"
            rows={4}
            required
            maxLength={2000}
            className={inputClass}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
          />
        </Field>
        <div className="mt-4 flex justify-end gap-2">
          <Link to={closeTo} preventScrollReset className="btn-secondary">
            {t('Cancel')}
          </Link>
          {/* Disabled while the notes are empty, once JavaScript can enable it again; the server refuses empty notes either way. */}
          <button
            type="submit"
            disabled={busy || (hydrated && notes.trim() === '')}
            className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60"
          >
            {t('Mark as Resolved')}
          </button>
        </div>
      </Form>
    </FormPanel>
  );
}

function RecoveryActions({ recovery }: { recovery: NonNullable<MonitoringData['recovery']> }) {
  const t = useT();
  if (recovery.rows.length === 0)
    return (
      <Card>
        <p className="text-sm text-slate-600">{t('No recovery actions found')}</p>
      </Card>
    );
  return (
    <>
      <ul className="space-y-3" data-testid="recovery-actions">
        {recovery.rows.map((r) => (
          <li key={r.id} className="rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-slate-900" translate="no">
                {r.actionType}
              </span>
              <span
                className={`rounded px-1.5 py-0.5 text-xs font-medium ${RECOVERY_CLASS[r.status] ?? 'bg-slate-100 text-slate-700'}`}
              >
                {t(BADGE_LABELS[r.status] ?? r.status)}
              </span>
              <DateTime value={r.createdAt} kind="instant" className="text-xs text-slate-600" />
            </p>
            {r.description ? (
              <p className="mt-1 text-slate-700" translate="no">
                {r.description}
              </p>
            ) : null}
            {r.result ? (
              <p className="mt-1 text-xs text-slate-600" translate="no">
                {r.result}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <Pagination
        page={recovery.page}
        pageCount={recovery.pageCount}
        total={recovery.total}
        pageSize={MONITORING_PAGE_SIZE}
      />
    </>
  );
}

function SystemMetrics({ health }: { health: MonitoringData['health'] }) {
  const { disk, database, api } = health.details;
  const f = useFormats();
  const t = useT();
  const rows: [string, string][] = [
    [
      t('Disk used'),
      disk
        ? t('{used} of {total} ({percent})', {
            used: sizeText(t, f, disk.used),
            total: sizeText(t, f, disk.total),
            percent: f.percent(disk.percentage, 1),
          })
        : t('Not measurable here'),
    ],
    [t('Database response time'), seconds(f, database.responseTime)],
    [
      t('Database connections'),
      database.connectionCount === null ? t('One embedded connection (SQLite)') : f.number(database.connectionCount),
    ],
    [t('Database size'), database.size === null ? '—' : sizeText(t, f, database.size)],
    [t('API response time'), api ? seconds(f, api.responseTime) : t('Not measured in this process')],
    [t('API error rate'), api ? f.percent(api.errorRate, 1) : '—'],
    [t('Requests per minute'), api ? f.number(api.requestsPerMinute, { min: 1, max: 1 }) : '—'],
  ];
  return (
    <Card title={t('System Metrics')}>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2" data-testid="system-metrics">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-3 border-b border-slate-100 py-1">
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-medium tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600">
        {api
          ? t(
              'API figures are this web process’s own requests over the last {minutes} minutes ({requests, plural, one {# request} other {# requests}}); the others were measured at {time}.',
              { minutes: api.windowMinutes, requests: api.requests, time: f.instant(health.timestamp) },
            )
          : t(
              'API figures are this web process’s own requests over the last {minutes} minutes; the others were measured at {time}.',
              { minutes: 15, time: f.instant(health.timestamp) },
            )}
      </p>
    </Card>
  );
}

export function SystemMonitoringScreen({ data, answer }: { data: MonitoringData; answer: ActionAnswer | null }) {
  useRefreshEvery(MONITORING_REFRESH_MS, data.resolving === null);
  const t = useT();
  const base = `/system-monitoring?tab=${data.tab}${data.errors && data.errors.page > 1 ? `&page=${data.errors.page}` : ''}`;
  return (
    <>
      <PageHeading title={t('System Monitoring')} />
      <Tiles health={data.health} />
      {data.resolving ? <ResolveForm error={data.resolving} answer={answer} /> : null}
      <TabNav
        label={t('System monitoring sections')}
        current={data.tab}
        tabs={MONITORING_TABS.map((tab) => ({ ...tab, label: t(tab.label), to: `?tab=${tab.key}` }))}
      />
      {data.tab === 'errors' && data.errors ? <ErrorTracking errors={data.errors} base={base} /> : null}
      {data.tab === 'recovery' && data.recovery ? <RecoveryActions recovery={data.recovery} /> : null}
      {data.tab === 'metrics' ? <SystemMetrics health={data.health} /> : null}
    </>
  );
}
