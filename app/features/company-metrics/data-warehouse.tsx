// The Vult Financial Services screen's own parts: the data
// summary, the API endpoints, and the five most recent rows of a table beside its add form.
import type { ResourceDef } from '../../platform/resources/define.ts';
import { formatNumber } from '../../platform/lib/format.ts';
import { cellText } from '../../platform/resources/cell.tsx';
import { Card } from '../../ui/form.tsx';
import { monthLabel } from './data.ts';
import { EmptyState } from './screen-parts.tsx';
import { ScrollRegion } from '../../ui/table/scroll-region.tsx';

export interface TableCount {
  label: string;
  total: number;
}

export function DataSummary({ counts, company }: { counts: TableCount[]; company: { name: string; type: string } }) {
  return (
    <Card title="Data Summary">
      <dl className="space-y-2 text-sm">
        {counts.map((c) => (
          <div key={c.label} className="flex justify-between gap-4">
            <dt className="text-slate-600">{c.label}</dt>
            <dd
              className="font-medium tabular-nums text-slate-900"
              data-testid="record-count"
            >{`${formatNumber(c.total)} ${c.total === 1 ? 'record' : 'records'}`}</dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 border-t border-slate-200 pt-2">
          <dt className="text-slate-600">Companies</dt>
          <dd className="flex items-center gap-2 font-medium text-slate-900">
            {company.name}
            <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">
              {company.type}
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
  { methods: 'GET, POST', path: '/api/vult/subscriber-metrics', note: 'GET answers the latest record' },
  { methods: 'GET, POST', path: '/api/vult/subscriber-levels' },
  { methods: 'GET, POST', path: '/api/vult/card-types' },
] as const;

export function EndpointList() {
  return (
    <Card title="API Endpoints">
      <ul className="space-y-2 text-sm" data-testid="endpoints">
        {ENDPOINTS.map((e) => (
          <li key={e.path} className="flex flex-wrap items-baseline gap-x-3">
            <span className="w-20 shrink-0 font-mono text-xs font-semibold text-slate-700">{e.methods}</span>
            <code className="font-mono text-slate-900">{e.path}</code>
            {'note' in e ? <span className="text-slate-600">({e.note})</span> : null}
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-slate-600">
        Each row also answers at <code className="font-mono">{'{path}/{id}'}</code> (GET, PUT, DELETE). Lists take the
        filters
        <code className="font-mono"> companyId</code>, <code className="font-mono">year</code> and{' '}
        <code className="font-mono">month</code>.
      </p>
    </Card>
  );
}

export function RecentRecords({
  def,
  rows,
  className,
}: {
  def: ResourceDef;
  rows: Record<string, unknown>[];
  className?: string;
}) {
  // The list's columns, with year and month as one 'Month' column ('Mar 2025': on one line beside the add form).
  const columns = def.list.columns.filter((c) => c.key !== 'year' && c.key !== 'month');
  return (
    <Card title={`Recent ${def.title}`} className={className}>
      {rows.length === 0 ? (
        <EmptyState>No {def.title.toLowerCase()} recorded for Vult yet.</EmptyState>
      ) : (
        <ScrollRegion label={`Recent ${def.title.toLowerCase()}`}>
          <table className="fit-table min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">{`The five most recent ${def.title.toLowerCase()}`}</caption>
            <thead className="text-xs font-semibold uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2 text-left">
                  Month
                </th>
                {columns.map((c) => (
                  <th key={c.key} scope="col" className={`px-3 py-2 ${numeric(c.format) ? 'text-right' : 'text-left'}`}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-800">
              {rows.map((row) => (
                <tr key={String(row.id)} data-testid="recent-row">
                  <td className="whitespace-nowrap px-3 py-2" data-label="Month" title={monthLabel(row)}>
                    {monthLabel(row, true)}
                  </td>
                  {columns.map((c) => (
                    <td
                      key={c.key}
                      data-label={c.label}
                      className={`px-3 py-2 ${numeric(c.format) ? 'text-right tabular-nums' : ''}`}
                    >
                      {cellText(def, c, row)}
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
