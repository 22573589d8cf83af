// The Statistics, Activity Analytics and Activity History tabs of User Management.
import { Form, useLocation } from '@remix-run/react';
import { ROLES, type Role } from '../../platform/lib/permissions.ts';
import type { ActivityAnalytics, ActivityEvent } from './user-activity.server.ts';
import { Alert, inputClass } from '../../ui/form.tsx';
import { DayInput } from '../../ui/day-input.tsx';
import { SearchIcon } from '../../ui/icons.tsx';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import { useFormats, usePreferences, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { durationText, hoursMinutesText } from '../../platform/i18n/units.ts';
import { ACTIVITY_WINDOW_DAYS, HISTORY_ACTION_CHOICES } from './schemas.ts';
import { ComputedNote } from '../../ui/computed-note.tsx';
import { AUDITED_TABLES } from '../resources.ts';
import { PrevNext, RoleBadge } from './users-tab.tsx';
import { ScrollRegion } from '../../ui/table/scroll-region.tsx';
import { wordsLabel } from '../../platform/lib/labels.ts';
import { UserFilter } from './user-filter.tsx';
import { isProductReason, reasonText } from '../../platform/audit-reasons.ts';

function StatCard({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  const f = useFormats();
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold text-slate-900">
        {typeof value === 'number' ? f.number(value) : value}
      </p>
    </div>
  );
}

export interface StatisticsData {
  totalUsers: number;
  activeUsers: number;
  inactiveUsers: number;
  usersByRole: Record<Role, number>;
}

export function StatisticsTab({ data }: { data: StatisticsData }) {
  const t = useT();
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label={t('Total Users')} value={data.totalUsers} testId="stat-total" />
        <StatCard label={t('Active Users')} value={data.activeUsers} testId="stat-active" />
        <StatCard label={t('Inactive Users')} value={data.inactiveUsers} testId="stat-inactive" />
      </div>
      <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 className="mb-3 text-base font-semibold text-slate-900">{t('Users by Role')}</h2>
        <ul className="grid gap-3 sm:grid-cols-4">
          {ROLES.map((role) => (
            <li
              key={role}
              className="flex items-center justify-between rounded-md border border-slate-100 px-3 py-2"
              data-testid={`role-count-${role}`}
            >
              <RoleBadge role={role} />
              <span className="text-lg font-semibold">{data.usersByRole[role] ?? 0}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** The summary of every user; the rows of one page of them (HISTORY_PAGE_SIZE a page). */
export type AnalyticsData = ActivityAnalytics & {
  page: number;
  totalPages: number;
  total: number;
  computedAgo: string;
};

/** The Action filter's choices. */
const ACTION_CHOICE_LABELS: Record<(typeof HISTORY_ACTION_CHOICES)[number], string> = {
  login: msg('Login'),
  create: msg('Create'),
  update: msg('Update'),
  delete: msg('Delete'),
};

const LEVEL_STYLE = {
  high: 'bg-green-100 text-green-800',
  medium: 'bg-yellow-100 text-yellow-800',
  low: 'bg-orange-100 text-orange-800',
  inactive: 'bg-slate-200 text-slate-700',
} as const;

export function AnalyticsTab({ data }: { data: AnalyticsData }) {
  const t = useT();
  const english = usePreferences().locale === 'en';
  const { search } = useLocation();
  const f = useFormats();
  const cell = 'px-3 py-3';
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label={t('Total Users')} value={data.summary.totalUsers} testId="analytics-total" />
        <StatCard label={t('Active Users')} value={data.summary.activeUsers} testId="analytics-active" />
        <StatCard label={t('Logins Today')} value={data.summary.loginsToday} testId="analytics-logins" />
        <StatCard
          label={t('Avg Session')}
          value={hoursMinutesText(t, f, data.summary.averageSessionDuration)}
          testId="analytics-avg-session"
        />
      </div>
      <ComputedNote
        what={t('Entries and edits of the last {days} days', { days: ACTIVITY_WINDOW_DAYS })}
        at={data.computedAt}
        ago={data.computedAgo}
        testId="analytics-computed"
      />
      <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900">
          {t('Detailed User Activity')}
        </h2>
        <ScrollRegion label={t('Detailed user activity')}>
          <table className="fit-table min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                {[
                  t('User'),
                  t('Activity Level'),
                  t('Total Logins'),
                  t('Total Session Time'),
                  t('Avg Session'),
                  t('Last Login'),
                  t('Last Activity'),
                  t('Activity Score'),
                ].map((h) => (
                  <th key={h} scope="col" className={cell}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.users.length === 0 ? (
                <tr>
                  <td colSpan={8} className="px-4 py-10 text-center text-slate-500">
                    {t('No users found.')}
                  </td>
                </tr>
              ) : (
                data.users.map((u) => {
                  const width = Math.max(0, Math.min(100, u.activityScore));
                  return (
                    <tr key={u.userId} data-testid="activity-row">
                      <td className={cell}>
                        <p className="font-medium text-slate-900" translate="no">
                          {u.fullName || u.username}
                        </p>
                        <p className="text-xs text-slate-500" translate="no">
                          {u.email}
                        </p>
                      </td>
                      <td className={cell}>
                        <span
                          className={`rounded-full px-2 py-0.5 text-xs font-medium ${english ? 'capitalize' : ''} ${LEVEL_STYLE[u.activityLevel]}`}
                        >
                          {t(
                            '{level, select, high {high} medium {medium} low {low} inactive {inactive} other {{level}}}',
                            { level: u.activityLevel },
                          )}
                        </span>
                      </td>
                      <td className={`${cell} tabular-nums`}>{f.number(u.totalLogins)}</td>
                      <td className={cell}>{durationText(t, f, u.totalSessionTime)}</td>
                      <td className={cell}>{durationText(t, f, u.averageSessionTime)}</td>
                      <td className={cell}>
                        {u.lastLogin ? <DateTime value={u.lastLogin} kind="instant" /> : 'Never'}
                      </td>
                      <td className={cell}>
                        {u.lastActivity ? <DateTime value={u.lastActivity} kind="instant" /> : 'Never'}
                      </td>
                      <td className={cell}>
                        <div className="flex items-center gap-2">
                          <div
                            className="h-2 w-24 rounded-full bg-slate-200"
                            role="meter"
                            aria-valuemin={0}
                            aria-valuemax={100}
                            aria-valuenow={width}
                            aria-label={t('Activity score of {name}', { name: u.username })}
                          >
                            <div className="h-2 rounded-full bg-blue-600" style={{ width: `${width}%` }} />
                          </div>
                          <span className="text-xs tabular-nums text-slate-600">{f.number(u.activityScore)}</span>
                        </div>
                      </td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
        </ScrollRegion>
        {data.totalPages > 1 ? (
          <div className="pager-bar">
            <p className="text-sm text-slate-600">
              {t('{total} users, by activity score', { total: f.number(data.total) })}
            </p>
            <PrevNext search={search} page={data.page} totalPages={data.totalPages} />
          </div>
        ) : null}
      </section>
    </div>
  );
}

export interface HistoryData {
  filters: { userId: string; startDate: string; endDate: string; action: string; tableName: string };
  page: number;
  total: number;
  totalPages: number;
  error: string | null;
  /** null: too many users to list (the filter is a text box). */
  userChoices: { value: string; label: string }[] | null;
  /** The text box's text: the filtered user's name, or the text that named nobody. */
  userText: string;
  events: ActivityEvent[];
}

export function HistoryTab({ data }: { data: HistoryData }) {
  const t = useT();
  const english = usePreferences().locale === 'en';
  const { search } = useLocation();
  const f = useFormats();
  const { filters } = data;
  const cell = 'px-4 py-3';
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <Form
        method="get"
        role="search"
        aria-label={t('Filter activity')}
        className="flex flex-wrap items-end gap-3 border-b border-slate-200 p-4"
        preventScrollReset
      >
        <input type="hidden" name="tab" value="history" />
        <label className="text-sm text-slate-700">
          <span className="mb-1 block font-medium">{t('User')}</span>
          <UserFilter
            name="userId"
            value={filters.userId}
            text={data.userText}
            choices={data.userChoices}
            allLabel={t('All Users')}
          />
        </label>
        <label className="text-sm text-slate-700">
          <span className="mb-1 block font-medium">{t('Start Date')}</span>
          <DayInput name="startDate" defaultValue={filters.startDate} />
        </label>
        <label className="text-sm text-slate-700">
          <span className="mb-1 block font-medium">{t('End Date')}</span>
          <DayInput name="endDate" defaultValue={filters.endDate} />
        </label>
        <label className="text-sm text-slate-700">
          <span className="mb-1 block font-medium">{t('Action')}</span>
          <select name="action" defaultValue={filters.action} className={inputClass}>
            <option value="">{t('All Actions')}</option>
            {HISTORY_ACTION_CHOICES.map((a) => (
              <option key={a} value={a} className="capitalize">
                {t(ACTION_CHOICE_LABELS[a])}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm text-slate-700">
          <span className="mb-1 block font-medium">{t('Table')}</span>
          <select name="tableName" defaultValue={filters.tableName} className={inputClass}>
            <option value="">{t('All Tables')}</option>
            {AUDITED_TABLES.map((table) => (
              <option key={table.value} value={table.value}>
                {t(table.label)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn-tool">
          <SearchIcon className="h-4 w-4" /> {t('Filter')}
        </button>
      </Form>
      {data.error ? (
        <div className="p-4">
          <Alert title={t('Invalid filter')}>{data.error}</Alert>
        </div>
      ) : null}
      <ScrollRegion label={t('User history')}>
        <table className="fit-table min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              {[t('User'), t('Action'), t('Table'), t('Record ID'), t('Timestamp'), t('IP Address'), t('Reason')].map(
                (h) => (
                  <th key={h} scope="col" className={cell}>
                    {h}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.events.length === 0 ? (
              <tr>
                <td colSpan={7} className="px-4 py-10 text-center text-slate-500">
                  {t('No activity found.')}
                </td>
              </tr>
            ) : (
              data.events.map((e) => (
                <tr key={e.id} data-testid="history-row">
                  <td className={cell}>
                    {e.user ? (
                      <>
                        <p className="font-medium text-slate-900" translate="no">
                          {e.user.fullName || e.user.username}
                        </p>
                        <p className="wrap-anywhere text-xs text-slate-500" translate="no">
                          {e.user.email}
                        </p>
                      </>
                    ) : e.actorLabel != null ? (
                      <span className="text-slate-500" translate="no">
                        {e.actorLabel}
                      </span>
                    ) : (
                      <span className="text-slate-500">{t('Unknown')}</span>
                    )}
                  </td>
                  <td className={`${cell} ${english ? 'capitalize' : ''}`}>
                    {t(
                      '{action, select, login {login} login_failed {login failed} logout {logout} create {create} update {update} delete {delete} restore {restore} other {{label}}}',
                      { action: e.action, label: e.action.replace(/_/g, ' ') },
                    )}
                  </td>
                  <td className={cell}>{e.tableName ? t(wordsLabel(e.tableName)) : ''}</td>
                  <td className={`${cell} tabular-nums`}>{e.recordId ?? ''}</td>
                  <td className={`${cell} whitespace-nowrap`}>
                    <DateTime value={e.timestamp} kind="instant" />
                  </td>
                  <td className={`${cell} wrap-anywhere`}>
                    {e.ipAddress ? <span translate="no">{e.ipAddress}</span> : t('N/A')}
                  </td>
                  <td className={`${cell} wrap-anywhere`}>
                    {e.reason ? (
                      isProductReason(e.reason) ? (
                        reasonText(e.reason, t)
                      ) : (
                        <span translate="no">{e.reason}</span>
                      )
                    ) : (
                      t('No reason provided')
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </ScrollRegion>
      <nav className="pager-bar" aria-label={t('Pagination')}>
        <p className="text-sm text-slate-600" data-testid="history-showing">
          {t('{total} events', { total: f.number(data.total) })}
        </p>
        <PrevNext search={search} page={data.page} totalPages={data.totalPages} />
      </nav>
    </section>
  );
}
