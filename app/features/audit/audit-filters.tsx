// The Audit Trail's filters: a GET form (works without JavaScript), so every filter lives in
// the URL and the current tab is kept; Clear drops them all.
import { Form, Link } from '@remix-run/react';
import { AUDITED_TABLES } from '../resources.ts';
import { UserFilter } from '../users/index.ts';
import { Button, inputClass } from '../../ui/form.tsx';

export type AuditFilterValues = Record<'q' | 'tableName' | 'userId' | 'recordId' | 'from' | 'to', string>;

export function AuditFilters({
  tab,
  values,
  users,
  userText,
}: {
  tab: string;
  values: AuditFilterValues;
  users: { value: string; label: string }[] | null;
  userText: string;
}) {
  const label = 'block text-sm font-medium text-slate-700';
  return (
    <Form
      method="get"
      role="search"
      aria-label="Audit filters"
      className="mb-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <input type="hidden" name="tab" value={tab} />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-1 lg:col-span-2">
          <label htmlFor="audit-q" className={label}>
            Search
          </label>
          <input
            id="audit-q"
            type="search"
            name="q"
            defaultValue={values.q}
            placeholder="Table, action, user or reason"
            className={inputClass}
          />
        </div>
        <div className="space-y-1">
          <label htmlFor="audit-table" className={label}>
            Table
          </label>
          <select id="audit-table" name="tableName" defaultValue={values.tableName} className={inputClass}>
            <option value="">All tables</option>
            {AUDITED_TABLES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor="audit-user" className={label}>
            User
          </label>
          <UserFilter id="audit-user" name="userId" value={values.userId} text={userText} choices={users} />
        </div>
        <div className="space-y-1">
          <label htmlFor="audit-record" className={label}>
            Record ID
          </label>
          <input
            id="audit-record"
            type="number"
            min={1}
            step={1}
            name="recordId"
            defaultValue={values.recordId}
            className={inputClass}
          />
        </div>
        <div className="grid grid-cols-2 gap-2 sm:col-span-2">
          <div className="space-y-1">
            <label htmlFor="audit-from" className={label}>
              From
            </label>
            <input id="audit-from" type="date" name="from" defaultValue={values.from} className={inputClass} />
          </div>
          <div className="space-y-1">
            <label htmlFor="audit-to" className={label}>
              To
            </label>
            <input id="audit-to" type="date" name="to" defaultValue={values.to} className={inputClass} />
          </div>
        </div>
      </div>
      <div className="mt-3 flex gap-2">
        <Button type="submit">Apply</Button>
        <Link
          to={`?tab=${tab}`}
          className="inline-flex items-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          Clear
        </Link>
      </div>
    </Form>
  );
}
