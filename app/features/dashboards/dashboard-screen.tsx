// The dashboard: the last-updated stamp, four tiles, 'Your Access Level',
// the budget and revenue charts (an addition to the original dashboard), Recent Activity, API Integration
// Activity and System Alerts. A tile or list the user may not see arrives as null and is left
// out. Relative times are computed against the load's own clock, so the server's markup and the
// browser's agree. With JavaScript the figures refresh every 30 s while the tab is visible.
import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { HEALTH_LABELS, healthDetail } from '../system/index.ts';
import { PLAN_RULE, PROJECTION_RULE } from '../finance/index.ts';
import { DollarChart, monthPoint } from '../../ui/chart/series-chart.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { useRefreshEvery } from '../../platform/screen/use-refresh.ts';
import { Card } from '../../ui/form.tsx';
import { AccessCard } from './access-card.tsx';
import type { Dashboard } from './dashboard.server.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { relativeTime } from '../../platform/i18n/relative-time.ts';

/** Every dashboard figure refreshes every 30 s, at least as often as anomalies (60 s) and backups (5 min) need. */
export const DASHBOARD_REFRESH_MS = 30_000;

/** The dashboard as the loader sends it (app/features/dashboards/dashboard.server.ts). */
export type DashboardView = Dashboard;

const STATUS_CLASS: Record<string, string> = {
  success: 'bg-green-100 text-green-800',
  partial: 'bg-amber-100 text-amber-800',
  failed: 'bg-red-100 text-red-800',
  running: 'bg-blue-100 text-blue-800',
};

const ACTION_CLASS: Record<string, string> = {
  create: 'bg-green-100 text-green-800',
  update: 'bg-blue-100 text-blue-800',
  delete: 'bg-red-100 text-red-800',
  login: 'bg-slate-100 text-slate-700',
};

/** The badges' words: sync statuses and audit actions. */
const BADGE_LABELS: Record<string, string> = {
  success: msg('success'),
  partial: msg('partial'),
  failed: msg('failed'),
  running: msg('running'),
  create: msg('create'),
  update: msg('update'),
  delete: msg('delete'),
  login: msg('login'),
};

function Tile({
  to,
  label,
  value,
  detail,
  testId,
  tone = 'text-slate-900',
}: {
  to: string;
  label: string;
  value: ReactNode;
  detail: ReactNode;
  testId: string;
  tone?: string;
}) {
  return (
    <Link
      to={to}
      className="block rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-blue-300 hover:shadow"
      data-testid={testId}
    >
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className={`mt-2 text-2xl font-bold tabular-nums ${tone}`}>{value}</p>
      <p className="mt-1 text-xs text-slate-600">{detail}</p>
    </Link>
  );
}

function Tiles({ data, now }: { data: DashboardView; now: number }) {
  const t = useT();
  const f = useFormats();
  const tiles: ReactNode[] = [];
  if (data.userStats) {
    tiles.push(
      <Tile
        key="users"
        to="/user-management"
        label={t('Active Users')}
        testId="tile-active-users"
        value={f.number(data.userStats.activeUsers)}
        detail={t('of {total} users', { total: f.number(data.userStats.totalUsers) })}
      />,
    );
  }
  if (data.api) {
    tiles.push(
      <Tile
        key="api"
        to="/api-integrations"
        label={t('API Success Rate')}
        testId="tile-api-success"
        value={data.api.runs ? f.percent(data.api.successRate, 1) : '—'}
        detail={
          data.api.runs
            ? t(
                '{runs, plural, one {# sync run in the last {days} days} other {# sync runs in the last {days} days}}',
                { runs: data.api.runs, days: data.api.windowDays },
              )
            : t('No sync runs in the last {days} days', { days: data.api.windowDays })
        }
      />,
    );
  }
  if (data.systemHealth) {
    const verdict = HEALTH_LABELS[data.systemHealth.overall];
    tiles.push(
      <Tile
        key="health"
        to="/system-monitoring"
        label={t('System Health')}
        testId="tile-system-health"
        tone={verdict.tone}
        value={t(verdict.label)}
        detail={healthDetail(data.systemHealth, f, t)}
      />,
    );
  }
  if (data.lastBackup) {
    const backup = data.lastBackup.backup;
    tiles.push(
      <Tile
        key="backup"
        to="/backup-recovery"
        label={t('Last Backup')}
        testId="tile-last-backup"
        value={
          backup ? <time dateTime={backup.createdAt}>{relativeTime(t, f, backup.createdAt, now)}</time> : t('Never')
        }
        detail={
          backup ? (
            <>
              <span translate="no">{backup.name}</span> ·{' '}
              <time dateTime={backup.createdAt}>{f.instant(backup.createdAt)}</time>
            </>
          ) : (
            t('No completed backup yet')
          )
        }
      />,
    );
  }
  if (!tiles.length) return null;
  return <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">{tiles}</div>;
}

const CHARTS = [
  {
    key: 'budgetVsActual',
    id: 'budget-chart',
    card: msg('Budget vs actual expenses'),
    title: msg('Budget and actual expenses by month'),
    planned: msg('Budget'),
    actual: msg('Actual expenses'),
    text: msg("Each month's budget and actual expenses for each of the last 12 months, in US dollars."),
    rule: PLAN_RULE,
  },
  {
    key: 'revenue',
    id: 'revenue-chart',
    card: msg('Projected vs actual revenue'),
    title: msg('Projected and actual revenue by month'),
    planned: msg('Projected revenue'),
    actual: msg('Actual revenue'),
    text: msg("Each month's projected and actual revenue for each of the last 12 months, in US dollars."),
    rule: PROJECTION_RULE,
  },
] as const;

function Charts({ charts, scope }: { charts: NonNullable<DashboardView['charts']>; scope: string }) {
  const t = useT();
  const f = useFormats();
  return (
    <div className="mt-6 grid gap-6 xl:grid-cols-2">
      {CHARTS.map((c) => (
        <Card key={c.key} title={t(c.card)}>
          <DollarChart
            id={c.id}
            kind="bar"
            size="half"
            title={`${t(c.title)}, ${scope}`}
            description={`${t(c.text)} ${t(c.rule)}`}
            labelHeading={t('Month')}
            series={[
              {
                name: t(c.planned),
                points: charts[c.key].map((r) => ({ label: monthPoint(f, r.month), value: r.planned })),
              },
              {
                name: t(c.actual),
                points: charts[c.key].map((r) => ({ label: monthPoint(f, r.month), value: r.actual })),
              },
            ]}
          />
          <p className="mt-2 text-xs text-slate-600" data-testid={`${c.id}-rule`}>
            {t(c.rule)}
          </p>
        </Card>
      ))}
    </div>
  );
}

/** A card listing timed rows (newest first), or its empty text. */
function TimedList<T extends { id: number; timestamp: string }>({
  title,
  empty,
  testId,
  rows,
  now,
  children,
}: {
  title: string;
  empty: string;
  testId: string;
  rows: T[];
  now: number;
  children: (row: T) => ReactNode;
}) {
  const t = useT();
  const f = useFormats();
  return (
    <Card title={title}>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid={testId}>
          {rows.map((r) => (
            <li key={r.id} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span className="min-w-0">{children(r)}</span>
              <time dateTime={r.timestamp} title={f.instant(r.timestamp)} className="shrink-0 text-xs text-slate-600">
                {relativeTime(t, f, r.timestamp, now)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

const badge = (classes: Record<string, string>, key: string) =>
  `rounded px-1.5 py-0.5 text-xs font-medium ${classes[key] ?? 'bg-slate-100 text-slate-700'}`;

function RecentActivity({ rows, now }: { rows: NonNullable<DashboardView['recentActivity']>; now: number }) {
  const t = useT();
  return (
    <TimedList
      title={t('Recent Activity')}
      empty={t('No recent activity')}
      testId="recent-activity"
      rows={rows}
      now={now}
    >
      {(r) => (
        <>
          <span className={`mr-2 ${badge(ACTION_CLASS, r.action)}`}>{t(BADGE_LABELS[r.action] ?? r.action)}</span>
          <span className="font-medium">{t(r.tableLabel)}</span>{' '}
          <span className="text-slate-600">{t('by {username}', { username: r.username })}</span>
        </>
      )}
    </TimedList>
  );
}

function ApiActivity({ rows, now }: { rows: NonNullable<DashboardView['apiActivity']>; now: number }) {
  const t = useT();
  return (
    <TimedList
      title={t('API Integration Activity')}
      empty={t('No API activity')}
      testId="api-activity"
      rows={rows}
      now={now}
    >
      {(r) => (
        <>
          {r.sourceName ? (
            <span className="font-medium" translate="no">
              {r.sourceName}
            </span>
          ) : (
            <span className="font-medium">{t('Deleted source')}</span>
          )}
          {r.endpointName ? (
            <span className="text-slate-600" translate="no">
              {' '}
              · {r.endpointName}
            </span>
          ) : null}
          <span className={`ml-2 ${badge(STATUS_CLASS, r.status)}`}>{t(BADGE_LABELS[r.status] ?? r.status)}</span>
        </>
      )}
    </TimedList>
  );
}

function SystemAlerts({ rows, now }: { rows: NonNullable<DashboardView['alerts']>; now: number }) {
  const t = useT();
  const f = useFormats();
  return (
    <Card title={t('System Alerts')}>
      <ul className="space-y-2" data-testid="system-alerts">
        {rows.map((a) => (
          <li key={a.id} className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            <p className="font-medium">{a.description}</p>
            <p className="mt-1 text-xs">
              {a.username} · {relativeTime(t, f, a.windowEnd, now)}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function DashboardScreen({ data }: { data: DashboardView }) {
  const t = useT();
  const f = useFormats();
  useRefreshEvery(DASHBOARD_REFRESH_MS);
  const now = Date.parse(data.updatedAt);
  const scope =
    data.userAccess.availableCompanies.length === 1
      ? data.userAccess.availableCompanies[0].name
      : data.userAccess.companyName === 'All Companies'
        ? t('all companies')
        : data.userAccess.companyName;
  return (
    <>
      <PageHeading title={t('Dashboard')}>
        <p className="text-sm text-slate-600">
          {t('Last updated:')}{' '}
          <time dateTime={data.updatedAt} data-testid="last-updated">
            {f.instant(data.updatedAt)}
          </time>
        </p>
      </PageHeading>
      <Tiles data={data} now={now} />
      <AccessCard access={data.userAccess} />
      {data.charts ? <Charts charts={data.charts} scope={scope} /> : null}
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        {data.recentActivity ? <RecentActivity rows={data.recentActivity} now={now} /> : null}
        {data.apiActivity ? <ApiActivity rows={data.apiActivity} now={now} /> : null}
        {data.alerts && data.alerts.length > 0 ? <SystemAlerts rows={data.alerts} now={now} /> : null}
      </div>
    </>
  );
}
