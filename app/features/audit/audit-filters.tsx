// The Audit Trail's filters: a GET form (works without JavaScript), so every filter lives in
// the URL and the current tab is kept; Clear drops them all.
import { Form, Link } from '@remix-run/react';
import { AUDITED_TABLES } from '../resources.ts';
import { UserFilter } from '../users/index.ts';
import { Button, inputClass } from '../../ui/form.tsx';
import { DayInput } from '../../ui/day-input.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';

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
  const t = useT();
  const label = 'block text-sm font-medium text-slate-700';
  return (
    <Form
      method="get"
      role="search"
      aria-label={t('Audit filters')}
      className="mb-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <input type="hidden" name="tab" value={tab} />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-1 lg:col-span-2">
          <label htmlFor="audit-q" className={label}>
            {t('Search')}
          </label>
          <input
            id="audit-q"
            type="search"
            name="q"
            defaultValue={values.q}
            placeholder={t('Table, action, user or reason')}
            className={inputClass}
          />
        </div>
        <div className="space-y-1">
          <label htmlFor="audit-table" className={label}>
            {t('Table')}
          </label>
          <select id="audit-table" name="tableName" defaultValue={values.tableName} className={inputClass}>
            <option value="">{t('All tables')}</option>
            {AUDITED_TABLES.map((table) => (
              <option key={table.value} value={table.value}>
                {t(table.label)}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor="audit-user" className={label}>
            {t('User')}
          </label>
          <UserFilter id="audit-user" name="userId" value={values.userId} text={userText} choices={users} />
        </div>
        <div className="space-y-1">
          <label htmlFor="audit-record" className={label}>
            {t('Record ID')}
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
              {t('From')}
            </label>
            <DayInput id="audit-from" name="from" defaultValue={values.from} />
          </div>
          <div className="space-y-1">
            <label htmlFor="audit-to" className={label}>
              {t('To')}
            </label>
            <DayInput id="audit-to" name="to" defaultValue={values.to} />
          </div>
        </div>
      </div>
      <div className="mt-3 flex gap-2">
        <Button type="submit">{t('Apply')}</Button>
        <Link to={`?tab=${tab}`} className="btn-secondary">
          {t('Clear')}
        </Link>
      </div>
    </Form>
  );
}
