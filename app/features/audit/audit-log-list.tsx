// The Audit Logs tab: entries newest first in a 600px scroll list (focusable, so keyboard
// users can scroll it), each with its changes as 'Label: old → new' in the form's words and
// formats (audit-readable.server.ts), a link to the record's
// screen and to its version history, and pagination links. A page holds 10 entries and each
// shows its first changes (a create changes every field), long values cut short: the rest are in
// the record's history, so the page stays small.
import { Link } from '@remix-run/react';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import type { Translate } from '../../platform/i18n/messages.ts';
import type { ReadableChange } from './audit-readable.server.ts';
import type { AuditLogEntry } from './audit-trail.server.ts';
import { Pagination } from '../../ui/table/pagination.tsx';
import { ActionBadge, StoredValue } from './parts.tsx';
import { recordHref, tableLabel } from './values.ts';
import { reasonText } from '../../platform/audit-reasons.ts';

/** Entries a page of the screen shows (the API's pages are its own). */
export const AUDIT_SCREEN_PAGE_SIZE = 10;
/** Changes an entry shows; the others are counted. */
export const CHANGES_SHOWN = 5;

/** An entry as the screen gets it: its first changes (readable; the raw ones stay with the API), and how many it leaves out. */
export type ShownAuditEntry = Omit<AuditLogEntry, 'changes'> & { changes: ReadableChange[]; moreChanges: number };

export interface AuditLogsData {
  rows: ShownAuditEntry[];
  total: number;
  page: number;
  pageSize: number;
}

/** Characters of a value the list shows: a longer one shows its beginning and its length. */
export const VALUE_SHOWN = 80;

/** A long value as its beginning and its length (the whole of it is in the record's history), in the reader's words. */
function shortened(text: string, t: Translate): string {
  return text.length > VALUE_SHOWN
    ? t('{text}… ({length} characters)', { text: text.slice(0, VALUE_SHOWN), length: text.length })
    : text;
}

export function shownChanges(
  entry: AuditLogEntry & { readableChanges: ReadableChange[] },
  t: Translate,
): ShownAuditEntry {
  const { readableChanges: changes, ...rest } = entry;
  return {
    ...rest,
    changes: changes.slice(0, CHANGES_SHOWN).map((c) => ({ ...c, old: shortened(c.old, t), new: shortened(c.new, t) })),
    moreChanges: Math.max(0, changes.length - CHANGES_SHOWN),
  };
}

function Changes({ changes, more }: { changes: ReadableChange[]; more: number }) {
  const t = useT();
  if (changes.length === 0) return null;
  return (
    <ul className="mt-2 space-y-1 rounded-md bg-slate-50 p-2 text-xs text-slate-700" aria-label={t('Changes')}>
      {changes.map((change) => (
        <li key={change.field} data-testid="change">
          <span className="font-medium text-slate-900">{t(change.label)}</span>: <StoredValue value={change.old} /> →{' '}
          <StoredValue value={change.new} />
        </li>
      ))}
      {more > 0 ? (
        <li className="text-slate-600" data-testid="more-changes">
          {t('and {count, plural, one {# more change} other {# more changes}} (in the record’s history)', {
            count: more,
          })}
        </li>
      ) : null}
    </ul>
  );
}

function Entry({ entry }: { entry: ShownAuditEntry }) {
  const t = useT();
  const table = t(tableLabel(entry.tableName));
  const href = recordHref(entry);
  const history =
    entry.recordId !== null
      ? `?${new URLSearchParams({ tab: 'versions', tableName: entry.tableName, recordId: String(entry.recordId) })}`
      : null;
  return (
    <li className="px-4 py-3" data-testid="audit-entry">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <ActionBadge action={entry.action} />
        <span className="font-medium text-slate-900">{table}</span>
        {entry.recordId !== null ? (
          <span className="text-slate-600">{t('Record #{id}', { id: entry.recordId })}</span>
        ) : null}
        <span className="text-slate-600">
          {t('by')}{' '}
          <span className="font-medium" translate="no">
            {entry.username}
          </span>
        </span>
        <DateTime value={entry.timestamp} kind="instant" className="ml-auto text-xs text-slate-500" />
      </div>
      {entry.reason ? (
        <p className="mt-1 text-sm text-slate-700">{t('Reason: {reason}', { reason: reasonText(entry.reason, t) })}</p>
      ) : null}
      <Changes changes={entry.changes} more={entry.moreChanges} />
      {href || history ? (
        <p className="mt-2 flex gap-4 text-sm">
          {href ? (
            <Link to={href} className="text-blue-700 hover:underline">
              {t('Open record')}
              <span className="sr-only"> {t('{id} of {table}', { id: entry.recordId, table })}</span>
            </Link>
          ) : null}
          {history ? (
            <Link to={history} className="text-blue-700 hover:underline">
              {t('History')}
              <span className="sr-only"> {t('of record {id} of {table}', { id: entry.recordId, table })}</span>
            </Link>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}

export function AuditLogList({ data }: { data: AuditLogsData }) {
  const t = useT();
  const pageCount = Math.ceil(data.total / data.pageSize);
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
      {data.rows.length === 0 ? (
        <p className="px-4 py-10 text-center text-slate-500">{t('No audit logs found')}</p>
      ) : (
        <div className="max-h-[600px] overflow-y-auto" tabIndex={0} role="region" aria-label={t('Audit log entries')}>
          <ul className="divide-y divide-slate-100">
            {data.rows.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ul>
        </div>
      )}
      <Pagination page={data.page} pageCount={pageCount} total={data.total} pageSize={data.pageSize} />
    </section>
  );
}
