// The Vult Financial Services screen's own parts: the data
// summary, the API endpoints, and the five most recent rows of a table beside its add form.
import type { ReactNode } from 'react';
import type { ResourceDef } from '../../platform/resources/define.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { cellText } from '../../platform/resources/cell.tsx';
import { Card } from '../../ui/form.tsx';
import { monthLabel } from './data.ts';
import { EmptyState } from './screen-parts.tsx';
import { ScrollRegion } from '../../ui/table/scroll-region.tsx';
import { columnLabels } from '../../ui/table/column-labels.ts';

export interface TableCount {
  /** A message (msg): a table's title. */
  label: string;
  total: number;
}

export function DataSummary({ counts, company }: { counts: TableCount[]; company: { name: string; type: string } }) {
  const f = useFormats();
  const t = useT();
  return (
    <Card title={t('Data Summary')}>
      <dl className="space-y-2 text-sm">
        {counts.map((c) => (
          <div key={c.label} className="flex justify-between gap-4">
            <dt className="text-slate-600">{t(c.label)}</dt>
            <dd className="font-medium tabular-nums text-slate-900" data-testid="record-count">
              {t('{total, plural, one {{count} record} other {{count} records}}', {
                total: c.total,
                count: f.number(c.total),
              })}
            </dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 border-t border-slate-200 pt-2">
          <dt className="text-slate-600">{t('Companies')}</dt>
          <dd className="flex items-center gap-2 font-medium text-slate-900">
            <span translate="no">{company.name}</span>
            <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">
              {t(
                '{type, select, mobile {mobile} infrastructure {infrastructure} fintech {fintech} marketing {marketing} other {{type}}}',
                { type: company.type },
              )}
            </span>
          </dd>
        </div>
      </dl>
    </Card>
  );
}

const ENDPOINTS = [
  { methods: 'GET, POST', path: '/api/vult-subscriber-metrics' },
  { methods: 'GET, POST', path: '/api/vult-subscriber-levels' },
  { methods: 'GET, POST', path: '/api/vult-card-types' },
  { methods: 'GET, POST', path: '/api/vult/subscriber-metrics', note: msg('GET answers the latest record') },
  { methods: 'GET, POST', path: '/api/vult/subscriber-levels' },
  { methods: 'GET, POST', path: '/api/vult/card-types' },
] as const;

/** Marks a placeholder's place in a translated sentence (a private-use character, never in a message). */
const MARK = '\uE000';

/** The sentence `t` gave with each marked placeholder replaced by its code element. */
function withCode(sentence: string): ReactNode[] {
  return sentence.split(MARK).map((part, i) =>
    i % 2 === 1 ? (
      <code key={i} className="font-mono">
        {part}
      </code>
    ) : (
      part
    ),
  );
}

const code = (text: string) => `${MARK}${text}${MARK}`;

export function EndpointList() {
  const t = useT();
  return (
    <Card title={t('API Endpoints')}>
      <ul className="space-y-2 text-sm" data-testid="endpoints">
        {ENDPOINTS.map((e) => (
          <li key={e.path} className="flex flex-wrap items-baseline gap-x-3">
            <span className="w-20 shrink-0 font-mono text-xs font-semibold text-slate-700" translate="no">
              {e.methods}
            </span>
            <code className="font-mono text-slate-900" translate="no">
              {e.path}
            </code>
            {'note' in e ? <span className="text-slate-600">({t(e.note)})</span> : null}
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-slate-600">
        {withCode(
          t(
            'Each row also answers at {path} (GET, PUT, DELETE). Lists take the filters {companyId}, {year} and {month}.',
            {
              path: code('{path}/{id}'),
              companyId: code('companyId'),
              year: code('year'),
              month: code('month'),
            },
          ),
        )}
      </p>
    </Card>
  );
}

/** Each table's texts around its recent rows, by its tab. */
const RECENT_TEXTS = {
  metrics: {
    title: msg('Recent Subscriber Metrics'),
    empty: msg('No subscriber metrics recorded for Vult yet.'),
    region: msg('Recent subscriber metrics'),
    caption: msg('The five most recent subscriber metrics'),
  },
  levels: {
    title: msg('Recent Subscriber Levels'),
    empty: msg('No subscriber levels recorded for Vult yet.'),
    region: msg('Recent subscriber levels'),
    caption: msg('The five most recent subscriber levels'),
  },
  cards: {
    title: msg('Recent Card Types'),
    empty: msg('No card types recorded for Vult yet.'),
    region: msg('Recent card types'),
    caption: msg('The five most recent card types'),
  },
} as const;

export function RecentRecords({
  tab,
  def,
  rows,
  className,
}: {
  tab: keyof typeof RECENT_TEXTS;
  def: ResourceDef;
  rows: Record<string, unknown>[];
  className?: string;
}) {
  // The list's columns, with year and month as one 'Month' column ('Mar 2025': on one line beside the add form).
  const columns = def.list.columns.filter((c) => c.key !== 'year' && c.key !== 'month');
  const f = useFormats();
  const t = useT();
  const texts = RECENT_TEXTS[tab];
  return (
    <Card title={t(texts.title)} className={className}>
      {rows.length === 0 ? (
        <EmptyState>{t(texts.empty)}</EmptyState>
      ) : (
        <ScrollRegion label={t(texts.region)}>
          <table
            className="fit-table min-w-full divide-y divide-slate-200 text-sm"
            style={columnLabels([t('Month'), ...columns.map((c) => t(c.label))])}
          >
            <caption className="sr-only">{t(texts.caption)}</caption>
            <thead className="text-xs font-semibold uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2 text-left">
                  {t('Month')}
                </th>
                {columns.map((c) => (
                  <th key={c.key} scope="col" className={`px-3 py-2 ${numeric(c.format) ? 'text-right' : 'text-left'}`}>
                    {t(c.label)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-800">
              {rows.map((row) => (
                <tr key={String(row.id)} data-testid="recent-row">
                  <td className="whitespace-nowrap px-3 py-2" title={monthLabel(row, f)} translate="no">
                    {monthLabel(row, f, true)}
                  </td>
                  {columns.map((c) => (
                    <td key={c.key} className={`px-3 py-2 ${numeric(c.format) ? 'text-right tabular-nums' : ''}`}>
                      {cellText(def, c, row, f)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Card>
  );
}

const numeric = (format: string | undefined) => format === 'number' || format === 'percent';
