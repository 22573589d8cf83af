// My Dashboard (the editor's personal dashboard): four tiles and the tabs Activity Feed,
// Performance, Insights and Goals (the last two hidden on small screens), every figure
// computed from stored data, none made up. Server-rendered; the tabs are links.
import { Link } from '@remix-run/react';
import type { EditorActivity } from '../users/index.server.ts';
import type { EditorMetrics } from './editor-dashboard.server.ts';
import { formatInstant, formatMoney } from '../../platform/lib/format.ts';
import { PLAN_RULE } from '../finance/index.ts';
import { EXAMINED_ENTRIES } from '../users/index.ts';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TabNav } from '../../platform/screen/action-result.tsx';
import { Card } from '../../ui/form.tsx';

export const EDITOR_TABS = [
  { key: 'activity', label: 'Activity Feed' },
  { key: 'performance', label: 'Performance' },
  { key: 'insights', label: 'Insights' },
  { key: 'goals', label: 'Goals' },
] as const;
export type EditorTab = (typeof EDITOR_TABS)[number]['key'];

/** Variance badge colour: above +10 red, below −10 green, otherwise yellow. */
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
  empty = 'No recent activity',
  showActor = false,
}: {
  rows: EditorActivity[];
  empty?: string;
  showActor?: boolean;
}) {
  if (rows.length === 0)
    return (
      <Card>
        <p className="text-sm text-slate-600">{empty}</p>
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
              <time dateTime={a.timestamp}>{formatInstant(a.timestamp)}</time>
              {a.amount !== null ? ` · ${formatMoney(a.amount)}` : ''}
              {a.company || a.category ? ` · ${[a.company, a.category].filter(Boolean).join(' / ')}` : ''}
              {showActor && a.ipAddress ? ` · ${a.ipAddress}` : ''}
            </p>
          </div>
          {a.editUrl ? (
            <Link
              to={a.editUrl}
              className="shrink-0 rounded-md border border-slate-300 px-3 py-1.5 text-xs font-medium text-slate-800 hover:bg-slate-50"
              aria-label={`Edit: ${a.description}`}
            >
              Edit
            </Link>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function EditorDashboardScreen({ tab, metrics }: { tab: EditorTab; metrics: EditorMetrics }) {
  const m = metrics;
  // Insights and Goals are left out of the tab bar on small screens.
  const tabs = EDITOR_TABS.map((t) => ({
    ...t,
    to: `?tab=${t.key}`,
    wideOnly: t.key === 'insights' || t.key === 'goals',
  }));
  return (
    <>
      <PageHeading title="My Dashboard">
        <p className="text-sm text-slate-600">Companies: {m.companyAccess.join(', ') || 'none'}</p>
      </PageHeading>
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="editor-tiles">
        <Tile
          label="Total Entries"
          value={m.totalEntries.toLocaleString('en-US')}
          detail={`${m.week.entries} in the last 7 days`}
        />
        <Tile
          label="Total Edits"
          value={m.totalEdits.toLocaleString('en-US')}
          detail={`${m.week.edits} in the last 7 days`}
        />
        <Tile label="Weekly Hours" value={m.weeklyHours.toFixed(1)} detail="Signed in during the last 7 days" />
        <Tile
          label="Avg Session"
          value={`${m.averageSessionTime.toFixed(1)} min`}
          detail={m.lastLoginDate ? `Last sign-in ${m.lastLoginDate} ${m.lastLoginTime} UTC` : 'No sign-in recorded'}
        />
      </div>
      <TabNav label="My dashboard sections" current={tab} tabs={tabs} />
      {tab === 'activity' ? <ActivityFeed rows={m.recentActivity} /> : null}
      {tab === 'performance' ? (
        <Card title="Performance (last 30 days)">
          <div className="space-y-4" data-testid="performance">
            <Bar label="Entries" value={m.performance.entries} detail={`${m.performance.entries}%`} />
            <Bar label="Edits" value={m.performance.edits} detail={`${m.performance.edits}%`} />
            <Bar label="Other changes" value={m.performance.other} detail={`${m.performance.other}%`} />
          </div>
          <p className="mt-4 text-sm text-slate-700">
            {m.performance.changes} change{m.performance.changes === 1 ? '' : 's'} in 30 days · activity score{' '}
            {m.activityScore} ({m.activityLevel})
          </p>
        </Card>
      ) : null}
      {tab === 'insights' ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Insights">
            <ul className="list-disc space-y-2 pl-5 text-sm text-slate-800" data-testid="insights">
              {m.insights.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          </Card>
          <Card title={`Budget status ${m.budgetVariances.year} (to date)`}>
            <dl className="grid grid-cols-3 gap-3 text-center text-sm" data-testid="budget-status">
              <div>
                <dt className="text-slate-600">Over budget</dt>
                <dd className="text-xl font-bold text-red-700">{m.budgetVariances.overBudget}</dd>
              </div>
              <div>
                <dt className="text-slate-600">On target</dt>
                <dd className="text-xl font-bold text-slate-900">{m.budgetVariances.onTarget}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Under budget</dt>
                <dd className="text-xl font-bold text-green-700">{m.budgetVariances.underBudget}</dd>
              </div>
            </dl>
            <p className="mt-2 text-xs text-slate-600">
              Expense categories within 5% of their budget so far this year are on target. {PLAN_RULE}
            </p>
          </Card>
          <Card title="Department performance" className="lg:col-span-2">
            {m.departmentPerformance.length === 0 ? (
              <p className="text-sm text-slate-600">No department data available</p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="department-performance">
                {m.departmentPerformance.map((d) => (
                  <li key={d.department} className="flex items-center justify-between gap-3 py-2 text-sm">
                    <span className="font-medium text-slate-800">{d.department}</span>
                    <span className="flex items-center gap-3">
                      <span className="text-xs text-slate-600">
                        {d.frequency} of your{' '}
                        {m.examinedEntries === EXAMINED_ENTRIES ? `latest ${EXAMINED_ENTRIES} ` : ''}entries
                      </span>
                      <span
                        className={`rounded px-2 py-0.5 text-xs font-medium tabular-nums ${varianceClass(d.variance)}`}
                      >
                        {d.variance === null ? 'No budget' : `${d.variance > 0 ? '+' : ''}${d.variance}%`}
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
        <Card title="Weekly goals">
          <div className="space-y-4" data-testid="goals">
            <Bar
              label="Entries"
              value={m.goals.entries.percentage}
              detail={`${m.goals.entries.actual} of ${m.goals.entries.target}`}
            />
            <Bar
              label="Hours"
              value={m.goals.hours.percentage}
              detail={`${m.goals.hours.actual.toFixed(1)} of ${m.goals.hours.target}`}
            />
            <Bar
              label="Accuracy"
              value={m.goals.accuracy.actual ?? 0}
              detail={
                m.goals.accuracy.actual === null
                  ? `No entries to judge yet (target ${m.goals.accuracy.target}%)`
                  : `${m.goals.accuracy.actual}% (target ${m.goals.accuracy.target}%)`
              }
            />
          </div>
          <p className="mt-4 text-xs text-slate-600">
            Accuracy is the share of your entries made 7 to 30 days ago (the latest {EXAMINED_ENTRIES} at most) that
            nobody else corrected within 7 days ({m.goals.accuracy.corrected} of {m.goals.accuracy.judged} were).
          </p>
        </Card>
      ) : null}
    </>
  );
}
