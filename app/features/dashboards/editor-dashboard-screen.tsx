// My Dashboard (the editor's personal dashboard): four tiles and the tabs Activity Feed,
// Performance, Insights and Goals (the last two hidden on small screens), every figure
// computed from stored data, none made up. Server-rendered; the tabs are links.
import { Link } from '@remix-run/react';
import type { EditorActivity } from '../users/index.server.ts';
import type { EditorMetrics } from './editor-dashboard.server.ts';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import type { Formats } from '../../platform/i18n/formats.ts';
import { PLAN_RULE } from '../finance/index.ts';
import { EXAMINED_ENTRIES } from '../users/index.ts';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TabNav } from '../../platform/screen/action-result.tsx';
import { Card } from '../../ui/form.tsx';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';

export const EDITOR_TABS = [
  { key: 'activity', label: msg('Activity Feed') },
  { key: 'performance', label: msg('Performance') },
  { key: 'insights', label: msg('Insights') },
  { key: 'goals', label: msg('Goals') },
] as const;
export type EditorTab = (typeof EDITOR_TABS)[number]['key'];

const ACTIVITY_LEVELS: Record<string, string> = {
  high: msg('high'),
  medium: msg('medium'),
  low: msg('low'),
  inactive: msg('inactive'),
};

/** Variance badge colour: above +10 red, below −10 green, otherwise yellow. */
/** Hours and minutes to a tenth ('12.5'), in the reader's format. */
const tenths = (f: Formats, n: number) => f.number(n, { min: 1, max: 1 });
/** A share computed to a tenth: '12.5%', '100%'. */
const share = (f: Formats, n: number) => f.percent(n, Number.isInteger(n) ? 0 : 1);

export function varianceClass(variance: number | null): string {
  if (variance === null) return 'bg-slate-100 text-slate-700';
  if (variance > 10) return 'bg-red-100 text-red-800';
  if (variance < -10) return 'bg-green-100 text-green-800';
  return 'bg-amber-50 text-amber-900';
}

function Tile({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-label={label}>
      <h2 className="text-sm font-medium text-slate-600">{label}</h2>
      <p className="mt-2 text-2xl font-bold tabular-nums text-slate-900">{value}</p>
      <p className="mt-1 text-xs text-slate-600">{detail}</p>
    </section>
  );
}

function Bar({ label, value, detail }: { label: string; value: number; detail: string }) {
  const width = Math.max(0, Math.min(100, value));
  return (
    <div>
      <div className="flex justify-between text-sm">
        <span className="font-medium text-slate-800">{label}</span>
        <span className="tabular-nums text-slate-700">{detail}</span>
      </div>
      <div
        className="mt-1 h-2 rounded bg-slate-100"
        role="progressbar"
        aria-label={label}
        aria-valuenow={Math.round(width)}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-2 rounded bg-blue-700" style={{ width: `${width}%` }} />
      </div>
    </div>
  );
}

export function ActivityFeed({
  rows,
  empty = msg('No recent activity'),
  showActor = false,
}: {
  rows: EditorActivity[];
  empty?: string;
  showActor?: boolean;
}) {
  const t = useT();
  const f = useFormats();
  if (rows.length === 0)
    return (
      <Card>
        <p className="text-sm text-slate-600">{t(empty)}</p>
      </Card>
    );
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" data-testid="activity-feed">
      {rows.map((a) => (
        <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
          <div className="min-w-0">
            <p className="text-slate-900">
              {showActor ? <span className="font-medium">{a.fullName || a.username} · </span> : null}
              {a.description}
            </p>
            <p className="mt-0.5 text-xs text-slate-600">
              <DateTime value={a.timestamp} kind="instant" />
              {a.amount !== null ? ` · ${f.money(a.amount)}` : ''}
              {a.company || a.category ? ` · ${[a.company, a.category].filter(Boolean).join(' / ')}` : ''}
              {showActor && a.ipAddress ? ` · ${a.ipAddress}` : ''}
            </p>
          </div>
          {a.editUrl ? (
            <Link
              to={a.editUrl}
              className="shrink-0 rounded-md border border-slate-300 px-3 py-1.5 text-xs font-medium text-slate-800 hover:bg-slate-50"
              aria-label={t('Edit: {description}', { description: a.description })}
            >
              {t('Edit')}
            </Link>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function EditorDashboardScreen({ tab, metrics }: { tab: EditorTab; metrics: EditorMetrics }) {
  const t = useT();
  const f = useFormats();
  const m = metrics;
  // Insights and Goals are left out of the tab bar on small screens.
  const tabs = EDITOR_TABS.map((tab) => ({
    ...tab,
    label: t(tab.label),
    to: `?tab=${tab.key}`,
    wideOnly: tab.key === 'insights' || tab.key === 'goals',
  }));
  return (
    <>
      <PageHeading title={t('My Dashboard')}>
        <p className="text-sm text-slate-600">
          {t('Companies: {companies}', { companies: m.companyAccess.join(', ') || t('none') })}
        </p>
      </PageHeading>
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="editor-tiles">
        <Tile
          label={t('Total Entries')}
          value={f.number(m.totalEntries)}
          detail={t('{count} in the last 7 days', { count: m.week.entries })}
        />
        <Tile
          label={t('Total Edits')}
          value={f.number(m.totalEdits)}
          detail={t('{count} in the last 7 days', { count: m.week.edits })}
        />
        <Tile
          label={t('Weekly Hours')}
          value={tenths(f, m.weeklyHours)}
          detail={t('Signed in during the last 7 days')}
        />
        <Tile
          label={t('Avg Session')}
          value={t('{minutes} min', { minutes: tenths(f, m.averageSessionTime) })}
          detail={
            m.lastLoginDate
              ? t('Last sign-in {when}', { when: f.instant(`${m.lastLoginDate}T${m.lastLoginTime ?? '00:00'}:00Z`) })
              : t('No sign-in recorded')
          }
        />
      </div>
      <TabNav label={t('My dashboard sections')} current={tab} tabs={tabs} />
      {tab === 'activity' ? <ActivityFeed rows={m.recentActivity} /> : null}
      {tab === 'performance' ? (
        <Card title={t('Performance (last 30 days)')}>
          <div className="space-y-4" data-testid="performance">
            <Bar label={t('Entries')} value={m.performance.entries} detail={share(f, m.performance.entries)} />
            <Bar label={t('Edits')} value={m.performance.edits} detail={share(f, m.performance.edits)} />
            <Bar label={t('Other changes')} value={m.performance.other} detail={share(f, m.performance.other)} />
          </div>
          <p className="mt-4 text-sm text-slate-700">
            {t(
              '{changes, plural, one {# change in 30 days} other {# changes in 30 days}} · activity score {score} ({level})',
              {
                changes: m.performance.changes,
                score: m.activityScore,
                level: t(ACTIVITY_LEVELS[m.activityLevel] ?? m.activityLevel),
              },
            )}
          </p>
        </Card>
      ) : null}
      {tab === 'insights' ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <Card title={t('Insights')}>
            <ul className="list-disc space-y-2 pl-5 text-sm text-slate-800" data-testid="insights">
              {m.insights.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          </Card>
          <Card title={t('Budget status {year} (to date)', { year: m.budgetVariances.year })}>
            <dl className="grid grid-cols-3 gap-3 text-center text-sm" data-testid="budget-status">
              <div>
                <dt className="text-slate-600">{t('Over budget')}</dt>
                <dd className="text-xl font-bold text-red-700">{m.budgetVariances.overBudget}</dd>
              </div>
              <div>
                <dt className="text-slate-600">{t('On target')}</dt>
                <dd className="text-xl font-bold text-slate-900">{m.budgetVariances.onTarget}</dd>
              </div>
              <div>
                <dt className="text-slate-600">{t('Under budget')}</dt>
                <dd className="text-xl font-bold text-green-700">{m.budgetVariances.underBudget}</dd>
              </div>
            </dl>
            <p className="mt-2 text-xs text-slate-600">
              {t('Expense categories within 5% of their budget so far this year are on target.')} {t(PLAN_RULE)}
            </p>
          </Card>
          <Card title={t('Department performance')} className="lg:col-span-2">
            {m.departmentPerformance.length === 0 ? (
              <p className="text-sm text-slate-600">{t('No department data available')}</p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="department-performance">
                {m.departmentPerformance.map((d) => (
                  <li key={d.department} className="flex items-center justify-between gap-3 py-2 text-sm">
                    <span className="font-medium text-slate-800">{d.department}</span>
                    <span className="flex items-center gap-3">
                      <span className="text-xs text-slate-600">
                        {m.examinedEntries === EXAMINED_ENTRIES
                          ? t('{count} of your latest {latest} entries', {
                              count: d.frequency,
                              latest: EXAMINED_ENTRIES,
                            })
                          : t('{count} of your entries', { count: d.frequency })}
                      </span>
                      <span
                        className={`rounded px-2 py-0.5 text-xs font-medium tabular-nums ${varianceClass(d.variance)}`}
                      >
                        {d.variance === null ? t('No budget') : `${d.variance > 0 ? '+' : ''}${share(f, d.variance)}`}
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      ) : null}
      {tab === 'goals' ? (
        <Card title={t('Weekly goals')}>
          <div className="space-y-4" data-testid="goals">
            <Bar
              label={t('Entries')}
              value={m.goals.entries.percentage}
              detail={t('{actual} of {target}', { actual: m.goals.entries.actual, target: m.goals.entries.target })}
            />
            <Bar
              label={t('Hours')}
              value={m.goals.hours.percentage}
              detail={t('{actual} of {target}', {
                actual: tenths(f, m.goals.hours.actual),
                target: m.goals.hours.target,
              })}
            />
            <Bar
              label={t('Accuracy')}
              value={m.goals.accuracy.actual ?? 0}
              detail={
                m.goals.accuracy.actual === null
                  ? t('No entries to judge yet (target {target})', { target: share(f, m.goals.accuracy.target) })
                  : t('{actual} (target {target})', {
                      actual: share(f, m.goals.accuracy.actual),
                      target: share(f, m.goals.accuracy.target),
                    })
              }
            />
          </div>
          <p className="mt-4 text-xs text-slate-600">
            {t(
              'Accuracy is the share of your entries made 7 to 30 days ago (the latest {latest} at most) that nobody else corrected within 7 days ({corrected} of {judged} were).',
              { latest: EXAMINED_ENTRIES, corrected: m.goals.accuracy.corrected, judged: m.goals.accuracy.judged },
            )}
          </p>
        </Card>
      ) : null}
    </>
  );
}
