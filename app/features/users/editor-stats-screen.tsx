// Editor Statistics (owners and admins): six summary cards and the tabs Overview,
// Performance, Activity Feed and Analytics, all computed from the audit trail and sessions. The
// editors are listed a page at a time, so the page stays small however many there are.
import type { EditorActivity } from './editor-activity.server.ts';
import type { EditorStat, EditorStats } from './editor-stats.server.ts';
import { formatMoney } from '../../platform/lib/format.ts';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TabNav } from '../../platform/screen/action-result.tsx';
import { Pagination } from '../../ui/table/pagination.tsx';
import { Card } from '../../ui/form.tsx';
import { ComputedNote } from '../../ui/computed-note.tsx';

export const STATS_TABS = [
  { key: 'overview', label: 'Overview' },
  { key: 'performance', label: 'Performance' },
  { key: 'activity', label: 'Activity Feed' },
  { key: 'analytics', label: 'Analytics' },
] as const;
export type StatsTab = (typeof STATS_TABS)[number]['key'];

/** The feed shows 50 of the last 100. */
export const FEED_SHOWN = 50;
/** Editors a tab lists at once (0: the tab lists none): the page stays small however many there are. */
export const EDITORS_PAGE_SIZE: Record<StatsTab, number> = { overview: 25, performance: 12, activity: 0, analytics: 0 };

/** Which page of the editors the tab shows (the editors of `stats` are that page's). */
export interface EditorsPaging {
  page: number;
  pages: number;
  size: number;
  total: number;
}

const LEVEL_CLASS: Record<string, string> = {
  high: 'bg-green-100 text-green-800',
  medium: 'bg-blue-100 text-blue-800',
  low: 'bg-amber-50 text-amber-900',
  inactive: 'bg-slate-100 text-slate-700',
};
const LEVEL_LABEL: Record<string, string> = { high: 'High', medium: 'Medium', low: 'Low', inactive: 'Inactive' };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The feed's time format: 'MMM dd, yyyy HH:mm' (UTC). */
export function feedTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())}, ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

function Level({ level }: { level: string }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${LEVEL_CLASS[level] ?? LEVEL_CLASS.inactive}`}>
      {LEVEL_LABEL[level] ?? level}
    </span>
  );
}

function SummaryCard({ label, value }: { label: string; value: string }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-label={label}>
      <h2 className="text-sm font-medium text-slate-600">{label}</h2>
      <p className="mt-1 text-2xl font-bold tabular-nums text-slate-900">{value}</p>
    </section>
  );
}

function Pages({ paging }: { paging: EditorsPaging }) {
  return paging.pages > 1 ? (
    <Pagination page={paging.page} pageCount={paging.pages} total={paging.total} pageSize={paging.size} />
  ) : null;
}

function Overview({ stats, paging }: { stats: EditorStats; paging: EditorsPaging }) {
  if (stats.editors.length === 0)
    return (
      <Card>
        <p className="text-sm text-slate-600">No editors found</p>
      </Card>
    );
  const first = (paging.page - 1) * paging.size;
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card title="Editors by activity score" className="lg:col-span-2">
        <ol className="divide-y divide-slate-100" data-testid="editor-ranking">
          {stats.editors.map((e, i) => (
            <li key={e.userId} className="flex flex-wrap items-center justify-between gap-3 py-2 text-sm">
              <span className="flex min-w-0 items-center gap-3">
                <span className="w-6 text-right font-semibold tabular-nums text-slate-700">{first + i + 1}</span>
                {first + i === 0 ? (
                  <span role="img" aria-label="Top editor" className="text-amber-600">
                    ★
                  </span>
                ) : null}
                <span className="min-w-0">
                  <span className="font-medium text-slate-900">{e.fullName}</span>
                  <span className="block text-xs text-slate-600">
                    {e.companyName} · {e.email}
                  </span>
                </span>
              </span>
              <span className="flex items-center gap-2">
                <Level level={e.activityLevel} />
                <span className="w-10 text-right font-semibold tabular-nums">{e.activityScore}</span>
              </span>
            </li>
          ))}
        </ol>
        <Pages paging={paging} />
      </Card>
      <Card title="Top Performers">
        <ul className="space-y-3 text-sm" data-testid="top-performers">
          {stats.topPerformers.map((e) => (
            <li key={e.userId}>
              <p className="font-medium text-slate-900">{e.fullName}</p>
              <p className="text-xs text-slate-600">
                {e.totalEntries} entries · {e.totalEdits} edits · {e.weeklyHours.toFixed(1)} h this week
              </p>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

function EditorCard({ e }: { e: EditorStat }) {
  const rows: [string, string][] = [
    ['Entries', String(e.totalEntries)],
    ['Edits', String(e.totalEdits)],
    ['Weekly hours', e.weeklyHours.toFixed(1)],
    ['Last login', e.lastLoginDate ? feedTime(e.lastLoginDate) : 'Never'],
    ['Logins', String(e.loginCount)],
    ['Activity score', String(e.activityScore)],
  ];
  return (
    <Card title={e.fullName}>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-right font-medium tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <div
        className="mt-3 h-2 rounded bg-slate-100"
        role="progressbar"
        aria-label={`${e.fullName}: activity score`}
        aria-valuenow={e.activityScore}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-2 rounded bg-blue-700" style={{ width: `${Math.min(100, e.activityScore)}%` }} />
      </div>
    </Card>
  );
}

function Performance({ stats, paging }: { stats: EditorStats; paging: EditorsPaging }) {
  return (
    <div className="space-y-6">
      <Card title="Activity distribution">
        <ul className="grid gap-3 text-sm sm:grid-cols-4" data-testid="distribution">
          {stats.distribution.map((d) => (
            <li key={d.level} className="rounded-md border border-slate-200 p-3">
              <Level level={d.level} />
              <p className="mt-2 text-xl font-bold tabular-nums">{d.count}</p>
              <p className="text-xs text-slate-600">{d.percentage}% of editors</p>
            </li>
          ))}
        </ul>
      </Card>
      {stats.editors.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600">No editors found</p>
        </Card>
      ) : (
        <div>
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {stats.editors.map((e) => (
              <EditorCard key={e.userId} e={e} />
            ))}
          </div>
          <Pages paging={paging} />
        </div>
      )}
    </div>
  );
}

function Feed({ rows }: { rows: EditorActivity[] }) {
  return (
    <Card title="Recent editor activity (last 100)">
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No recent activity</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="editor-activity">
          {rows.slice(0, FEED_SHOWN).map((a) => (
            <li key={a.id} className="py-2 text-sm">
              <p className="text-slate-900">
                <span className="font-medium">{a.fullName || a.username}</span> · {a.action} · {a.tableName}
              </p>
              <p className="text-slate-700">{a.description}</p>
              <p className="text-xs text-slate-600">
                <time dateTime={a.timestamp}>{feedTime(a.timestamp)}</time>
                {a.ipAddress ? ` · ${a.ipAddress}` : ''}
                {a.amount !== null ? ` · ${formatMoney(a.amount)}` : ''}
                {a.company || a.category ? ` · ${a.company ?? a.category}` : ''}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Analytics({ stats }: { stats: EditorStats }) {
  if (stats.companies.length === 0)
    return (
      <Card>
        <p className="text-sm text-slate-600">No editors found</p>
      </Card>
    );
  return (
    <div className="grid gap-4 md:grid-cols-2" data-testid="editor-analytics">
      {stats.companies.map((c) => (
        <Card key={c.companyName} title={c.companyName}>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            {(
              [
                ['Editors (active / total)', `${c.activeEditors} / ${c.editors}`],
                ['Weekly hours', c.weeklyHours.toFixed(1)],
                ['Average score', String(c.averageScore)],
                ['Entries per editor', c.entriesPerEditor.toFixed(1)],
                ['Edits per editor', c.editsPerEditor.toFixed(1)],
                ['Hours per editor', c.hoursPerEditor.toFixed(1)],
                ['Edit ratio (edits ÷ entries)', c.editRatio === null ? '—' : c.editRatio.toFixed(2)],
                ['Active rate', `${c.activeRate}%`],
              ] as [string, string][]
            ).map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-slate-600">{label}</dt>
                <dd className="text-right font-medium tabular-nums text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        </Card>
      ))}
    </div>
  );
}

export function EditorStatsScreen({
  tab,
  stats,
  paging,
  history,
}: {
  tab: StatsTab;
  stats: EditorStats & { computedAgo: string };
  paging: EditorsPaging;
  history: EditorActivity[] | null;
}) {
  const s = stats.summary;
  return (
    <>
      <PageHeading title="Editor Statistics">
        <p className="text-sm text-slate-600">
          Scores, entries and edits over the last {stats.windowDays} days; hours over the last 7.
        </p>
        <ComputedNote
          what="Entries and edits"
          at={stats.computedAt}
          ago={stats.computedAgo}
          testId="editor-stats-computed"
        />
      </PageHeading>
      <div className="mb-6 grid gap-4 sm:grid-cols-3 xl:grid-cols-6" data-testid="editor-summary">
        <SummaryCard label="Total Editors" value={String(s.totalEditors)} />
        <SummaryCard label="Active" value={String(s.activeEditors)} />
        <SummaryCard label="Weekly Hours" value={s.weeklyHours.toFixed(1)} />
        <SummaryCard label="Entries" value={s.totalEntries.toLocaleString('en-US')} />
        <SummaryCard label="Edits" value={s.totalEdits.toLocaleString('en-US')} />
        <SummaryCard label="Avg Score" value={String(s.averageScore)} />
      </div>
      <TabNav
        label="Editor statistics sections"
        current={tab}
        tabs={STATS_TABS.map((t) => ({ ...t, to: `?tab=${t.key}` }))}
      />
      {tab === 'overview' ? <Overview stats={stats} paging={paging} /> : null}
      {tab === 'performance' ? <Performance stats={stats} paging={paging} /> : null}
      {tab === 'activity' && history ? <Feed rows={history} /> : null}
      {tab === 'analytics' ? <Analytics stats={stats} /> : null}
    </>
  );
}
