// Pieces both Vult screens share: the tab bar, the month picker (a
// GET form, so it works without JavaScript), empty states and a refusal without a form.
import { Form, useLocation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { withParams } from '../../platform/lib/url.ts';
import { TabNav } from '../../platform/screen/action-result.tsx';
import { Alert, Button, inputClass } from '../../ui/form.tsx';
import { yearField } from './metric-fields.ts';
import { yearChoices } from '../../platform/resources/resource-form.tsx';
import type { Month } from './data.ts';

/** Tab links that keep the chosen month and drop an open form. The labels are messages (msg). */
export function VultTabs({ tabs, current }: { tabs: readonly { key: string; label: string }[]; current: string }) {
  const { search } = useLocation();
  const t = useT();
  return (
    <TabNav
      label={t('Sections')}
      current={current}
      tabs={tabs.map((tab) => ({ ...tab, label: t(tab.label), to: withParams(search, { tab: tab.key, edit: null }) }))}
    />
  );
}

const MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** Year and month selects with a Show button: ?year=&month= on the same tab. The years are the add forms' years. */
export function MonthPicker({ tab, month }: { tab: string; month: Month | null }) {
  // With no data yet the selects start at this month (as the add forms do).
  const now = new Date();
  const shown = month ?? { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
  const f = useFormats();
  const t = useT();
  return (
    <Form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label={t('Choose a month')}>
      <input type="hidden" name="tab" value={tab} />
      <div>
        <label htmlFor="vult-year" className="block text-sm font-medium text-slate-700">
          {t('Year')}
        </label>
        <select id="vult-year" name="year" defaultValue={shown.year} key={`y${shown.year}`} className={inputClass}>
          {yearChoices(yearField, String(shown.year)).map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="vult-month" className="block text-sm font-medium text-slate-700">
          {t('Month')}
        </label>
        <select id="vult-month" name="month" defaultValue={shown.month} key={`m${shown.month}`} className={inputClass}>
          {MONTHS.map((m) => (
            <option key={m} value={m}>
              {f.month(m)}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="secondary">
        {t('Show')}
      </Button>
    </Form>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p
      className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600"
      data-testid="empty-state"
    >
      {children}
    </p>
  );
}

/** A refusal no form on the page shows (a 403 for a user without the permission). */
export function ActionAlert({ message }: { message: string | null }) {
  const t = useT();
  return message ? (
    <div className="mb-4">
      <Alert title={t('Error')}>{message}</Alert>
    </div>
  ) : null;
}
