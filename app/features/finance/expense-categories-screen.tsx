// The Expense Categories screen: the generic list with a tab per company, the counts of
// categories and of those mapped to a department, and each row's inline department select.
import { Form, useLocation, useNavigation, useSubmit, type useLoaderData } from '@remix-run/react';
import { ResourceScreen } from '../../platform/resources/resource-screen.tsx';
import { TabNav } from '../../platform/screen/action-result.tsx';
import { withParams } from '../../platform/lib/url.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import type { ScreenRowOf } from '../../platform/screen/screen-rows.ts';
import { expenseCategories } from './expense-categories.ts';
import type { loader } from './expense-categories-route.server.ts';

export type ExpenseCategoriesData = ReturnType<typeof useLoaderData<typeof loader>>;

function DepartmentSelect({
  row,
  departments,
}: {
  row: ScreenRowOf<typeof expenseCategories>;
  departments: { value: string; label: string }[];
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const t = useT();
  const busy =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'remap' &&
    navigation.formData?.get('id') === String(row.id);
  return (
    <Form method="post" preventScrollReset className="flex items-center gap-2">
      <input type="hidden" name="intent" value="remap" />
      <input type="hidden" name="id" value={row.id} />
      <select
        name="departmentId"
        defaultValue={row.departmentId ?? ''}
        aria-label={t('Department of {name}', { name: row.name })}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm"
        onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
        disabled={busy}
      >
        <option value="">{t('None')}</option>
        {departments.map((d) => (
          <option key={d.value} value={d.value} translate="no">
            {d.label}
          </option>
        ))}
      </select>
      {/* Without JavaScript the change is sent with this button. */}
      <noscript>
        <button type="submit" className="rounded-md border border-slate-300 px-2 py-1 text-xs">
          {t('Save')}
        </button>
      </noscript>
    </Form>
  );
}

export function ExpenseCategoriesScreen({ data }: { data: ExpenseCategoriesData }) {
  const { search } = useLocation();
  const f = useFormats();
  const t = useT();
  const company = data.currentCompanyId ? String(data.currentCompanyId) : '';
  return (
    <ResourceScreen
      def={expenseCategories}
      fixed={company ? { companyId: company } : undefined}
      exportParams={company ? { companyId: company } : undefined}
      keep={{ company }}
      extraCell={{
        label: msg('Department'),
        render: (row) =>
          data.can.edit ? (
            <DepartmentSelect row={row} departments={data.choices.departments} />
          ) : (
            <span translate={row.departmentName ? 'no' : undefined}>{row.departmentName ?? t('None')}</span>
          ),
      }}
    >
      <TabNav
        label={t('Companies')}
        current={company}
        tabs={data.tabs.map((c) => ({
          key: String(c.id),
          label: c.name,
          named: true,
          to: withParams(search, { company: c.id, page: null, q: null, departmentId: null, new: null, edit: null }),
        }))}
      />
      <div className="mb-4 grid gap-4 sm:grid-cols-2">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <p className="text-sm text-slate-500">{t('Total Categories')}</p>
          <p className="text-2xl font-semibold" data-testid="category-count">
            {f.number(data.counts.total)}
          </p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <p className="text-sm text-slate-500">{t('Mapped to a Department')}</p>
          <p className="text-2xl font-semibold" data-testid="mapped-count">
            {f.number(data.counts.mapped)}
          </p>
        </div>
      </div>
    </ResourceScreen>
  );
}
