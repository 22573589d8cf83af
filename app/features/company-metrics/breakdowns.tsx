// A month's subscriber levels and card types: one row
// each with its figures and, for users who may edit, an Edit link that opens the dialog (?edit=ID).
import { Link, useLocation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { formatNumber, formatPercent } from '../../platform/lib/format.ts';
import { withParams } from '../../platform/lib/url.ts';
import { CARD_TYPE_LABELS, LEVEL_LABELS, LEVEL_MEANINGS } from './metric-fields.ts';
import { inEnumOrder, type CardTypeRow, type LevelRow } from './data.ts';
import { ScrollRegion } from '../../ui/table/scroll-region.tsx';

const cell = 'px-4 py-3 text-sm';
const number = `${cell} text-right tabular-nums`;

/** The Edit link of a row: this URL with ?edit=ID (a dialog with JavaScript, a panel without). */
export function EditLink({ id, label }: { id: number; label: string }) {
  const { search } = useLocation();
  return (
    <Link
      to={withParams(search, { edit: id })}
      preventScrollReset
      aria-label={`Edit ${label}`}
      className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50"
    >
      Edit
    </Link>
  );
}

export function Badge({ children }: { children: string }) {
  return (
    <span
      className="inline-block rounded-full bg-blue-100 px-2.5 py-0.5 text-xs font-medium text-blue-800"
      data-testid="badge"
    >
      {children}
    </span>
  );
}

function Table({ caption, headings, children }: { caption: string; headings: string[]; children: ReactNode }) {
  return (
    <ScrollRegion label={caption} className="rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            {headings.map((h, i) => (
              <th
                key={h || i}
                scope="col"
                className={`px-4 py-2 ${i === 0 || h === 'Description' ? 'text-left' : 'text-right'}`}
              >
                {h || <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-800">{children}</tbody>
      </table>
    </ScrollRegion>
  );
}

export function LevelList({ rows, caption, canEdit }: { rows: LevelRow[]; caption: string; canEdit: boolean }) {
  return (
    <Table caption={caption} headings={['Level', 'Description', 'Subscribers', 'Percentage', ...(canEdit ? [''] : [])]}>
      {inEnumOrder(rows, (r) => r.level, Object.keys(LEVEL_LABELS)).map((row) => {
        const label = LEVEL_LABELS[row.level] ?? row.level;
        return (
          <tr key={row.id} data-testid="level-row">
            <th scope="row" className={`${cell} text-left font-normal`}>
              <Badge>{label}</Badge>
            </th>
            <td className={`${cell} text-slate-600`}>{row.description || LEVEL_MEANINGS[row.level] || ''}</td>
            <td className={number}>{formatNumber(row.subscriberCount)}</td>
            <td className={number}>{formatPercent(row.percentageOfTotal)}</td>
            {canEdit ? (
              <td className={`${cell} text-right`}>
                <EditLink id={row.id} label={label} />
              </td>
            ) : null}
          </tr>
        );
      })}
    </Table>
  );
}

export function CardTypeList({ rows, caption, canEdit }: { rows: CardTypeRow[]; caption: string; canEdit: boolean }) {
  return (
    <Table caption={caption} headings={['Card Type', 'Cards', '% of Cards', '% of Users', ...(canEdit ? [''] : [])]}>
      {inEnumOrder(rows, (r) => r.cardType, Object.keys(CARD_TYPE_LABELS)).map((row) => {
        const label = CARD_TYPE_LABELS[row.cardType] ?? row.cardType;
        return (
          <tr key={row.id} data-testid="card-type-row">
            <th scope="row" className={`${cell} text-left font-normal`}>
              <Badge>{label}</Badge>
              {row.description ? <p className="mt-1 text-xs text-slate-600">{row.description}</p> : null}
            </th>
            <td className={number}>{formatNumber(row.cardCount)}</td>
            <td className={number}>{formatPercent(row.percentageOfCards)}</td>
            <td className={number}>{formatPercent(row.percentageOfUsers)}</td>
            {canEdit ? (
              <td className={`${cell} text-right`}>
                <EditLink id={row.id} label={label} />
              </td>
            ) : null}
          </tr>
        );
      })}
    </Table>
  );
}
