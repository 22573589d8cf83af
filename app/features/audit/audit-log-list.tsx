// The Audit Logs tab: entries newest first in a 600px scroll list (focusable, so keyboard
// users can scroll it), each with its changes as 'Label: old → new' in the form's words and
// formats (audit-readable.server.ts), a link to the record's
// screen and to its version history, and pagination links. A page holds 10 entries and each
// shows its first changes (a create changes every field), long values cut short: the rest are in
// the record's history, so the page stays small.
import { Link } from '@remix-run/react';
import { formatInstant } from '../../platform/lib/format.ts';
import type { ReadableChange } from './audit-readable.server.ts';
import type { AuditLogEntry } from './audit-trail.server.ts';
import { Pagination } from '../../ui/table/pagination.tsx';
import { ActionBadge, StoredValue } from './parts.tsx';
import { recordHref, tableLabel } from './values.ts';

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

/** A long value as its beginning and its length (the whole of it is in the record's history). */
function shortened(text: string): string {
  return text.length > VALUE_SHOWN ? `${text.slice(0, VALUE_SHOWN)}… (${text.length} characters)` : text;
}

export function shownChanges(entry: AuditLogEntry & { readableChanges: ReadableChange[] }): ShownAuditEntry {
  const { readableChanges: changes, ...rest } = entry;
  return {
    ...rest,
    changes: changes.slice(0, CHANGES_SHOWN).map((c) => ({ ...c, old: shortened(c.old), new: shortened(c.new) })),
    moreChanges: Math.max(0, changes.length - CHANGES_SHOWN),
  };
}

function Changes({ changes, more }: { changes: ReadableChange[]; more: number }) {
  if (changes.length === 0) return null;
  return (
    <ul className="mt-2 space-y-1 rounded-md bg-slate-50 p-2 text-xs text-slate-700" aria-label="Changes">
      {changes.map((change) => (
        <li key={change.field} data-testid="change">
          <span className="font-medium text-slate-900">{change.label}</span>: <StoredValue value={change.old} /> →{' '}
          <StoredValue value={change.new} />
        </li>
      ))}
      {more > 0 ? (
        <li className="text-slate-600" data-testid="more-changes">
          and {more} more change{more === 1 ? '' : 's'} (in the record’s history)
        </li>
      ) : null}
    </ul>
  );
}

function Entry({ entry }: { entry: ShownAuditEntry }) {
  const href = recordHref(entry);
  const history =
    entry.recordId !== null
      ? `?${new URLSearchParams({ tab: 'versions', tableName: entry.tableName, recordId: String(entry.recordId) })}`
      : null;
  return (
    <li className="px-4 py-3" data-testid="audit-entry">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <ActionBadge action={entry.action} />
        <span className="font-medium text-slate-900">{tableLabel(entry.tableName)}</span>
        {entry.recordId !== null ? <span className="text-slate-600">Record #{entry.recordId}</span> : null}
        <span className="text-slate-600">
          by <span className="font-medium">{entry.username}</span>
        </span>
        <time dateTime={entry.timestamp} className="ml-auto text-xs text-slate-500">
          {formatInstant(entry.timestamp)}
        </time>
      </div>
      {entry.reason ? <p className="mt-1 text-sm text-slate-700">Reason: {entry.reason}</p> : null}
      <Changes changes={entry.changes} more={entry.moreChanges} />
      {href || history ? (
        <p className="mt-2 flex gap-4 text-sm">
          {href ? (
            <Link to={href} className="text-blue-700 hover:underline">
              Open record
              <span className="sr-only">
                {' '}
                {entry.recordId} of {tableLabel(entry.tableName)}
              </span>
            </Link>
          ) : null}
          {history ? (
            <Link to={history} className="text-blue-700 hover:underline">
              History
              <span className="sr-only">
                {' '}
                of record {entry.recordId} of {tableLabel(entry.tableName)}
              </span>
            </Link>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}

export function AuditLogList({ data }: { data: AuditLogsData }) {
  const pageCount = Math.ceil(data.total / data.pageSize);
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
      {data.rows.length === 0 ? (
        <p className="px-4 py-10 text-center text-slate-500">No audit logs found</p>
      ) : (
        <div className="max-h-[600px] overflow-y-auto" tabIndex={0} role="region" aria-label="Audit log entries">
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
