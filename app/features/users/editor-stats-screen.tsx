// Editor Statistics (owners and admins): six summary cards and the tabs Overview,
// Performance, Activity Feed and Analytics, all computed from the audit trail and sessions. The
// editors are listed a page at a time, so the page stays small however many there are.
import type { EditorActivity } from './editor-activity.server.ts';
import type { EditorStat, EditorStats } from './editor-stats.server.ts';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import type { Formats } from '../../platform/i18n/formats.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
import { AUDITED_TABLES } from '../resources.ts';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TabNav } from '../../platform/screen/action-result.tsx';
import { Pagination } from '../../ui/table/pagination.tsx';
import { Card } from '../../ui/form.tsx';
import { ComputedNote } from '../../ui/computed-note.tsx';

export const STATS_TABS = [
  { key: 'overview', label: msg('Overview') },
  { key: 'performance', label: msg('Performance') },
  { key: 'activity', label: msg('Activity Feed') },
  { key: 'analytics', label: msg('Analytics') },
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

/** The statistics name an editor without a company 'All Companies' (the /api answer's English). */
const NO_COMPANY = 'All Companies';
function companyName(name: string, t: Translate) {
  return name === NO_COMPANY ? t('All Companies') : <span translate="no">{name}</span>;
}

/** The feed's English verbs and table names (editor-activity.server.ts), to show its description translated. */
const VERBS: Record<string, string> = { create: 'Added', update: 'Edited', delete: 'Deleted', restore: 'Restored' };
const TABLE_LABELS = new Map(AUDITED_TABLES.map((table) => [table.value, table.label]));

/** 'Added Budgets #12: Office rent' as 'Added Budgets' in the reader's words, then the row's own text. */
function FeedDescription({ activity: a }: { activity: EditorActivity }) {
  const t = useT();
  const table = TABLE_LABELS.get(a.tableName) ?? a.tableName;
  const head = `${VERBS[a.action] ?? a.action} ${table}`;
  if (!VERBS[a.action] || !a.description.startsWith(head)) return <span translate="no">{a.description}</span>;
  return (
    <>
      {t(
        '{action, select, create {Added {table}} update {Edited {table}} delete {Deleted {table}} other {Restored {table}}}',
        { action: a.action, table: t(table) },
      )}
      <span translate="no">{a.description.slice(head.length)}</span>
    </>
  );
}

/** Hours and averages to a tenth ('12.5'), in the reader's format. */
const tenths = (f: Formats, n: number) => f.number(n, { min: 1, max: 1 });
/** A share computed to a tenth: '12.5%', '100%'. */
const share = (f: Formats, n: number) => f.percent(n, Number.isInteger(n) ? 0 : 1);

function Level({ level }: { level: string }) {
  const t = useT();
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${LEVEL_CLASS[level] ?? LEVEL_CLASS.inactive}`}>
      {t('{level, select, high {High} medium {Medium} low {Low} inactive {Inactive} other {{level}}}', { level })}
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
  const t = useT();
  const f = useFormats();
  if (stats.editors.length === 0)
    return (
      <Card>
        <p className="text-sm text-slate-600">{t('No editors found')}</p>
      </Card>
    );
  const first = (paging.page - 1) * paging.size;
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card title={t('Editors by activity score')} className="lg:col-span-2">
        <ol className="divide-y divide-slate-100" data-testid="editor-ranking">
          {stats.editors.map((e, i) => (
            <li key={e.userId} className="flex flex-wrap items-center justify-between gap-3 py-2 text-sm">
              <span className="flex min-w-0 items-center gap-3">
                <span className="w-6 text-right font-semibold tabular-nums text-slate-700">{first + i + 1}</span>
                {first + i === 0 ? (
                  <span role="img" aria-label={t('Top editor')} className="text-amber-600">
                    ★
                  </span>
                ) : null}
                <span className="min-w-0">
                  <span className="font-medium text-slate-900" translate="no">
                    {e.fullName}
                  </span>
                  <span className="block text-xs text-slate-600">
                    {companyName(e.companyName, t)} · <span translate="no">{e.email}</span>
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
      <Card title={t('Top Performers')}>
        <ul className="space-y-3 text-sm" data-testid="top-performers">
          {stats.topPerformers.map((e) => (
            <li key={e.userId}>
              <p className="font-medium text-slate-900" translate="no">
                {e.fullName}
              </p>
              <p className="text-xs text-slate-600">
                {t('{entries} entries · {edits} edits · {hours} h this week', {
                  entries: f.number(e.totalEntries),
                  edits: f.number(e.totalEdits),
                  hours: tenths(f, e.weeklyHours),
                })}
              </p>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

function EditorCard({ e }: { e: EditorStat }) {
  const t = useT();
  const f = useFormats();
  const rows: [string, string][] = [
    [t('Entries'), f.number(e.totalEntries)],
    [t('Edits'), f.number(e.totalEdits)],
    [t('Weekly hours'), tenths(f, e.weeklyHours)],
    [t('Last login'), e.lastLoginDate ? f.instant(e.lastLoginDate) : t('Never')],
    [t('Logins'), f.number(e.loginCount)],
    [t('Activity score'), String(e.activityScore)],
  ];
  return (
    <Card title={<span translate="no">{e.fullName}</span>}>
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
        aria-label={t('{name}: activity score', { name: e.fullName })}
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
  const t = useT();
  const f = useFormats();
  return (
    <div className="space-y-6">
      <Card title={t('Activity distribution')}>
        <ul className="grid gap-3 text-sm sm:grid-cols-4" data-testid="distribution">
          {stats.distribution.map((d) => (
            <li key={d.level} className="rounded-md border border-slate-200 p-3">
              <Level level={d.level} />
              <p className="mt-2 text-xl font-bold tabular-nums">{f.number(d.count)}</p>
              <p className="text-xs text-slate-600">{t('{share} of editors', { share: share(f, d.percentage) })}</p>
            </li>
          ))}
        </ul>
      </Card>
      {stats.editors.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600">{t('No editors found')}</p>
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
  const t = useT();
  const f = useFormats();
  return (
    <Card title={t('Recent editor activity (last 100)')}>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t('No recent activity')}</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="editor-activity">
          {rows.slice(0, FEED_SHOWN).map((a) => (
            <li key={a.id} className="py-2 text-sm">
              <p className="text-slate-900">
                <span className="font-medium" translate="no">
                  {a.fullName || a.username}
                </span>{' '}
                · <span translate="no">{a.action}</span> · <span translate="no">{a.tableName}</span>
              </p>
              <p className="text-slate-700">
                <FeedDescription activity={a} />
              </p>
              <p className="text-xs text-slate-600">
                <DateTime value={a.timestamp} kind="instant" />
                {a.ipAddress ? (
                  <>
                    {' · '}
                    <span translate="no">{a.ipAddress}</span>
                  </>
                ) : null}
                {a.amount !== null ? ` · ${f.money(a.amount)}` : ''}
                {a.company || a.category ? (
                  <>
                    {' · '}
                    <span translate="no">{a.company ?? a.category}</span>
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Analytics({ stats }: { stats: EditorStats }) {
  const t = useT();
  const f = useFormats();
  if (stats.companies.length === 0)
    return (
      <Card>
        <p className="text-sm text-slate-600">{t('No editors found')}</p>
      </Card>
    );
  return (
    <div className="grid gap-4 md:grid-cols-2" data-testid="editor-analytics">
      {stats.companies.map((c) => (
        <Card key={c.companyName} title={companyName(c.companyName, t)}>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            {(
              [
                [t('Editors (active / total)'), `${f.number(c.activeEditors)} / ${f.number(c.editors)}`],
                [t('Weekly hours'), tenths(f, c.weeklyHours)],
                [t('Average score'), f.number(c.averageScore)],
                [t('Entries per editor'), tenths(f, c.entriesPerEditor)],
                [t('Edits per editor'), tenths(f, c.editsPerEditor)],
                [t('Hours per editor'), tenths(f, c.hoursPerEditor)],
                [
                  t('Edit ratio (edits ÷ entries)'),
                  c.editRatio === null ? '—' : f.number(c.editRatio, { min: 2, max: 2 }),
                ],
                [t('Active rate'), share(f, c.activeRate)],
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
  const t = useT();
  const s = stats.summary;
  const f = useFormats();
  return (
    <>
      <PageHeading title={t('Editor Statistics')}>
        <p className="text-sm text-slate-600">
          {t('Scores, entries and edits over the last {days} days; hours over the last 7.', { days: stats.windowDays })}
        </p>
        <ComputedNote
          what={t('Entries and edits')}
          at={stats.computedAt}
          ago={stats.computedAgo}
          testId="editor-stats-computed"
        />
      </PageHeading>
      <div className="mb-6 grid gap-4 sm:grid-cols-3 xl:grid-cols-6" data-testid="editor-summary">
        <SummaryCard label={t('Total Editors')} value={f.number(s.totalEditors)} />
        <SummaryCard label={t('Active')} value={f.number(s.activeEditors)} />
        <SummaryCard label={t('Weekly Hours')} value={tenths(f, s.weeklyHours)} />
        <SummaryCard label={t('Entries')} value={f.number(s.totalEntries)} />
        <SummaryCard label={t('Edits')} value={f.number(s.totalEdits)} />
        <SummaryCard label={t('Avg Score')} value={f.number(s.averageScore)} />
      </div>
      <TabNav
        label={t('Editor statistics sections')}
        current={tab}
        tabs={STATS_TABS.map((item) => ({ ...item, label: t(item.label), to: `?tab=${item.key}` }))}
      />
      {tab === 'overview' ? <Overview stats={stats} paging={paging} /> : null}
      {tab === 'performance' ? <Performance stats={stats} paging={paging} /> : null}
      {tab === 'activity' && history ? <Feed rows={history} /> : null}
      {tab === 'analytics' ? <Analytics stats={stats} /> : null}
    </>
  );
}
