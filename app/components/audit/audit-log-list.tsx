// The Audit Logs tab: entries newest first in a 600px scroll list (focusable, so keyboard
// users can scroll it), each with its changes as 'field: old → new', a link to the record's
// screen and to its version history, and pagination links.
import { Link } from '@remix-run/react';
import { formatInstant } from '../../lib/format.ts';
import type { AuditLogEntry } from '../../services/audit-trail.server.ts';
import { Pagination } from '../table/pagination.tsx';
import { ActionBadge, StoredValue } from './parts.tsx';
import { recordHref, tableLabel } from './values.ts';

export interface AuditLogsData {
  rows: AuditLogEntry[];
  total: number;
  page: number;
  pageSize: number;
}

function Changes({ changes }: { changes: AuditLogEntry['changes'] }) {
  const entries = Object.entries(changes ?? {});
  if (entries.length === 0) return null;
  return (
    <ul className="mt-2 space-y-1 rounded-md bg-slate-50 p-2 text-xs text-slate-700" aria-label="Changes">
      {entries.map(([field, change]) => (
        <li key={field} data-testid="change">
          <span className="font-medium text-slate-900">{field}</span>: <StoredValue value={change?.old} /> → <StoredValue value={change?.new} />
        </li>
      ))}
    </ul>
  );
}

function Entry({ entry }: { entry: AuditLogEntry }) {
  const href = recordHref(entry);
  const history = entry.recordId !== null
    ? `?${new URLSearchParams({ tab: 'versions', tableName: entry.tableName, recordId: String(entry.recordId) })}`
    : null;
  return (
    <li className="px-4 py-3" data-testid="audit-entry">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <ActionBadge action={entry.action} />
        <span className="font-medium text-slate-900">{tableLabel(entry.tableName)}</span>
        {entry.recordId !== null ? <span className="text-slate-600">Record #{entry.recordId}</span> : null}
        <span className="text-slate-600">by <span className="font-medium">{entry.username}</span></span>
        <time dateTime={entry.timestamp} className="ml-auto text-xs text-slate-500">{formatInstant(entry.timestamp)}</time>
      </div>
      {entry.reason ? <p className="mt-1 text-sm text-slate-700">Reason: {entry.reason}</p> : null}
      <Changes changes={entry.changes} />
      {href || history ? (
        <p className="mt-2 flex gap-4 text-sm">
          {href ? <Link to={href} className="text-blue-700 hover:underline">Open record<span className="sr-only"> {entry.recordId} of {tableLabel(entry.tableName)}</span></Link> : null}
          {history ? <Link to={history} className="text-blue-700 hover:underline">History<span className="sr-only"> of record {entry.recordId} of {tableLabel(entry.tableName)}</span></Link> : null}
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
            {data.rows.map((entry) => <Entry key={entry.id} entry={entry} />)}
          </ul>
        </div>
      )}
      <Pagination page={data.page} pageCount={pageCount} total={data.total} pageSize={data.pageSize} />
    </section>
  );
}
