// The pieces of the One Network Subscriptions screen: the overview cards, the
// breakdown of each record (count, share bar, new and churn) and the month picker. Every number
// comes from a stored record; a missing record is an empty state, never a default figure.
import { Form, Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { monthLabel, type MetricMonth } from './metric-fields.ts';
export { monthLabel };
import { Card } from '../../ui/form.tsx';
import { PencilIcon, PlusIcon } from '../../ui/icons.tsx';
import { ScrollRegion } from '../../ui/table/scroll-region.tsx';

export type MetricRecord = Record<string, unknown> & { id: number };
export type Period = MetricMonth;

const num = (record: MetricRecord, key: string) => Number(record[key] ?? 0);

const linkButton = 'inline-flex items-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium shadow-sm';

/** What a tab shows without its record: no number at all, and the way to add one. */
export function EmptyRecord({ kind, period, addTo }: { kind: Kind; period: Period | null; addTo: string | null }) {
  const f = useFormats();
  const t = useT();
  const month = period ? monthLabel(period, f) : '';
  const text = {
    broadband: period ? t('No broadband record for {month}.', { month }) : t('No broadband records yet.'),
    mobile: period
      ? t('No mobile subscription record for {month}.', { month })
      : t('No mobile subscription records yet.'),
    access: period ? t('No mobile access record for {month}.', { month }) : t('No mobile access records yet.'),
  }[kind];
  return (
    <div
      className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center"
      data-testid="empty-state"
    >
      <p className="text-sm text-slate-600">{text}</p>
      {addTo ? (
        <Link to={addTo} preventScrollReset className={`${linkButton} mt-4 bg-blue-700 text-white hover:bg-blue-800`}>
          <PlusIcon className="h-4 w-4" /> {t('Add record')}
        </Link>
      ) : null}
    </div>
  );
}

function StatCard({
  title,
  record,
  empty,
  edit,
  children,
}: {
  title: string;
  record: MetricRecord | null;
  empty: string;
  edit?: { to: string; label: string };
  children: (record: MetricRecord) => ReactNode;
}) {
  const f = useFormats();
  return (
    <Card>
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-sm font-medium text-slate-600">{title}</h2>
        {record && edit ? (
          <Link
            to={edit.to}
            aria-label={edit.label}
            preventScrollReset
            className="rounded p-1 text-sm text-slate-500 hover:bg-slate-100 hover:text-slate-800"
          >
            <PencilIcon className="h-4 w-4" />
          </Link>
        ) : null}
      </div>
      {record ? (
        <>
          {children(record)}
          <p className="mt-2 text-xs text-slate-500" translate="no">
            {monthLabel(record, f)}
          </p>
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-500">{empty}</p>
      )}
    </Card>
  );
}

const big = 'mt-1 text-3xl font-semibold tabular-nums text-slate-900';

export type Kind = 'broadband' | 'mobile' | 'access';

/** The three cards; `edit` gives each shown record's edit link (its tab's dialog), when allowed. */
export function OverviewCards({
  broadband,
  mobile,
  access,
  edit = {},
}: {
  broadband: MetricRecord | null;
  mobile: MetricRecord | null;
  access: MetricRecord | null;
  edit?: Partial<Record<Kind, { to: string; label: string }>>;
}) {
  const f = useFormats();
  const t = useT();
  return (
    <div className="mb-6 grid gap-4 md:grid-cols-3" data-testid="overview-cards">
      <StatCard
        title={t('Total Broadband Connections')}
        record={broadband}
        empty={t('No broadband records yet.')}
        edit={edit.broadband}
      >
        {(r) => (
          <>
            <p className={big}>{f.number(num(r, 'totalBroadband'))}</p>
            <p className="mt-1 text-sm text-slate-600">
              {t('New:')} <span className="font-medium text-green-700">{f.number(num(r, 'newConnections'))}</span>
              {' · '}
              {t('Churn:')} <span className="font-medium text-red-700">{f.number(num(r, 'churnConnections'))}</span>
            </p>
          </>
        )}
      </StatCard>
      <StatCard
        title={t('Total Mobile Subscriptions')}
        record={mobile}
        empty={t('No mobile subscription records yet.')}
        edit={edit.mobile}
      >
        {(r) => (
          <>
            <p className={big}>{f.number(num(r, 'totalMobileSubscriptions'))}</p>
            <p className="mt-1 text-sm text-slate-600">{t('All billing cycles: Daily + Weekly + Monthly')}</p>
          </>
        )}
      </StatCard>
      <StatCard
        title={t('MiFi Device Dominance')}
        record={access}
        empty={t('No mobile access records yet.')}
        edit={edit.access}
      >
        {(r) => (
          <>
            <p className={big}>{f.percent(num(r, 'mifiDevicesPercentage'))}</p>
            <p className="mt-1 text-sm text-slate-600">
              {t('{count} MiFi devices', { count: f.number(num(r, 'mifiDevices')) })}
            </p>
          </>
        )}
      </StatCard>
    </div>
  );
}

export interface BreakdownRow {
  /** A message (msg), shown in the reader's language. */
  label: string;
  /** Field names in the record. */
  count: string;
  percent: string;
  new?: string;
  churn?: string;
}

/** A share of the total: the percentage as text, and a bar drawn from it (decorative). */
function ShareBar({ value }: { value: number }) {
  const f = useFormats();
  const width = Math.max(0, Math.min(100, value));
  return (
    <div className="flex items-center gap-3">
      <div className="h-2 w-32 rounded-full bg-slate-200 sm:w-48" aria-hidden="true">
        <div className="h-2 rounded-full bg-blue-600" style={{ width: `${width}%` }} />
      </div>
      <span className="tabular-nums">{f.percent(value)}</span>
    </div>
  );
}

const cell = 'px-4 py-3';

/** One record of a tab: its month, totals, Edit, and a row per type with its share. The title and labels are messages (msg). */
export function RecordBreakdown({
  title,
  record,
  summary,
  rows,
  editTo,
}: {
  title: string;
  record: MetricRecord;
  summary: { label: string; value: number }[];
  rows: readonly BreakdownRow[];
  editTo: string | null;
}) {
  const flows = rows.some((r) => r.new);
  const f = useFormats();
  const t = useT();
  const caption = t('{title}, {month}', { title: t(title), month: monthLabel(record, f) });
  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">{t(title)}</h2>
          <p className="text-sm text-slate-500" translate="no">
            {monthLabel(record, f)}
          </p>
        </div>
        {editTo ? (
          <Link
            to={editTo}
            preventScrollReset
            className={`${linkButton} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`}
          >
            <PencilIcon className="h-4 w-4" /> {t('Edit')}
          </Link>
        ) : null}
      </div>
      <dl className="mb-4 flex flex-wrap gap-x-8 gap-y-2" data-testid="record-summary">
        {summary.map((s) => (
          <div key={s.label}>
            <dt className="text-xs uppercase tracking-wide text-slate-500">{t(s.label)}</dt>
            <dd className="text-xl font-semibold tabular-nums text-slate-900">{f.number(s.value)}</dd>
          </div>
        ))}
      </dl>
      <ScrollRegion label={caption}>
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className={cell}>
                {t('Type')}
              </th>
              <th scope="col" className={`${cell} text-right`}>
                {t('Count')}
              </th>
              <th scope="col" className={cell}>
                {t('Share of total')}
              </th>
              {flows ? (
                <th scope="col" className={`${cell} text-right`}>
                  {t('New')}
                </th>
              ) : null}
              {flows ? (
                <th scope="col" className={`${cell} text-right`}>
                  {t('Churn')}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.label} data-testid="breakdown-row">
                <th scope="row" className={`${cell} text-left font-medium text-slate-900`}>
                  {t(row.label)}
                </th>
                <td className={`${cell} text-right tabular-nums`}>{f.number(num(record, row.count))}</td>
                <td className={cell}>
                  <ShareBar value={num(record, row.percent)} />
                </td>
                {flows ? (
                  <td className={`${cell} text-right tabular-nums`}>{row.new ? f.number(num(record, row.new)) : ''}</td>
                ) : null}
                {flows ? (
                  <td className={`${cell} text-right tabular-nums`}>
                    {row.churn ? f.number(num(record, row.churn)) : ''}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </Card>
  );
}

const MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** The GET form choosing the month every tab shows (?year=&month=); 'Latest' clears it. */
export function PeriodPicker({ tab, period, years }: { tab: string; period: Period | null; years: number[] }) {
  const select = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm';
  const f = useFormats();
  const t = useT();
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2" aria-label={t('Month shown')}>
      <input type="hidden" name="tab" value={tab} />
      <label className="text-sm text-slate-700">
        <span className="block text-xs font-medium text-slate-600">{t('Year')}</span>
        <select name="year" defaultValue={period ? String(period.year) : ''} className={select}>
          <option value="">{t('Latest')}</option>
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm text-slate-700">
        <span className="block text-xs font-medium text-slate-600">{t('Month')}</span>
        <select name="month" defaultValue={period ? String(period.month) : ''} className={select}>
          <option value="">{t('Latest')}</option>
          {MONTHS.map((month) => (
            <option key={month} value={month}>
              {f.month(month)}
            </option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        className={`${linkButton} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`}
      >
        {t('Show')}
      </button>
    </Form>
  );
}
