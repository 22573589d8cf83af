// A month's subscriber levels and card types: one row
// each with its figures and, for users who may edit, an Edit link that opens the dialog (?edit=ID).
import { Link, useLocation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { withParams } from '../../platform/lib/url.ts';
import { CARD_TYPE_LABELS, LEVEL_LABELS, LEVEL_MEANINGS } from './metric-fields.ts';
import { inEnumOrder, type CardTypeRow, type LevelRow } from './data.ts';
import { ScrollRegion } from '../../ui/table/scroll-region.tsx';

const cell = 'px-4 py-3 text-sm';
const number = `${cell} text-right tabular-nums`;

/** The Edit link of a row: this URL with ?edit=ID (a dialog with JavaScript, a panel without); `label` is its name read aloud. */
export function EditLink({ id, label }: { id: number; label: string }) {
  const { search } = useLocation();
  const t = useT();
  return (
    <Link
      to={withParams(search, { edit: id })}
      preventScrollReset
      aria-label={label}
      className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50"
    >
      {t('Edit')}
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

/** `headings` are messages (msg); '' is the actions column. */
function Table({ caption, headings, children }: { caption: string; headings: string[]; children: ReactNode }) {
  const t = useT();
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
                {h ? t(h) : <span className="sr-only">{t('Actions')}</span>}
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
  const f = useFormats();
  const t = useT();
  return (
    <Table
      caption={caption}
      headings={[msg('Level'), msg('Description'), msg('Subscribers'), msg('Percentage'), ...(canEdit ? [''] : [])]}
    >
      {inEnumOrder(rows, (r) => r.level, Object.keys(LEVEL_LABELS)).map((row) => {
        const known = LEVEL_LABELS[row.level];
        const label = known ? t(known) : row.level;
        const meaning = LEVEL_MEANINGS[row.level];
        return (
          <tr key={row.id} data-testid="level-row">
            <th scope="row" className={`${cell} text-left font-normal`}>
              <Badge>{label}</Badge>
            </th>
            <td className={`${cell} text-slate-600`}>
              {row.description ? <span translate="no">{row.description}</span> : meaning ? t(meaning) : ''}
            </td>
            <td className={number}>{f.number(row.subscriberCount)}</td>
            <td className={number}>{f.percent(row.percentageOfTotal)}</td>
            {canEdit ? (
              <td className={`${cell} text-right`}>
                <EditLink id={row.id} label={t('Edit {noun}', { noun: label })} />
              </td>
            ) : null}
          </tr>
        );
      })}
    </Table>
  );
}

export function CardTypeList({ rows, caption, canEdit }: { rows: CardTypeRow[]; caption: string; canEdit: boolean }) {
  const f = useFormats();
  const t = useT();
  return (
    <Table
      caption={caption}
      headings={[msg('Card Type'), msg('Cards'), msg('% of Cards'), msg('% of Users'), ...(canEdit ? [''] : [])]}
    >
      {inEnumOrder(rows, (r) => r.cardType, Object.keys(CARD_TYPE_LABELS)).map((row) => {
        const known = CARD_TYPE_LABELS[row.cardType];
        const label = known ? t(known) : row.cardType;
        return (
          <tr key={row.id} data-testid="card-type-row">
            <th scope="row" className={`${cell} text-left font-normal`}>
              <Badge>{label}</Badge>
              {row.description ? (
                <p className="mt-1 text-xs text-slate-600" translate="no">
                  {row.description}
                </p>
              ) : null}
            </th>
            <td className={number}>{f.number(row.cardCount)}</td>
            <td className={number}>{f.percent(row.percentageOfCards)}</td>
            <td className={number}>{f.percent(row.percentageOfUsers)}</td>
            {canEdit ? (
              <td className={`${cell} text-right`}>
                <EditLink id={row.id} label={t('Edit {noun}', { noun: label })} />
              </td>
            ) : null}
          </tr>
        );
      })}
    </Table>
  );
}
