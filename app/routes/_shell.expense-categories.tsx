// Expense Categories: one tab per company (?company=ID, default company 1), the counts of
// categories and of those mapped to a department, and inline department reassignment.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useLoaderData, useLocation, useNavigation, useSubmit } from '@remix-run/react';
import { ResourceScreen } from '../platform/resources/resource-screen.tsx';
import { TabNav } from '../platform/screen/action-result.tsx';
import { resourceAction, resourceLoader } from '../platform/resources/resource-screen.server.ts';
import { loadScreen, succeed } from '../platform/screen/screen.server.ts';
import { intent } from '../platform/screen/intent.ts';
import { positiveIdParam } from '../platform/lib/query.ts';
import { withParams } from '../platform/lib/url.ts';
import type { ScreenRowOf } from '../platform/screen/screen-rows.ts';
import { expenseCategories } from '../features/finance/expense-categories.ts';
import { categoryCounts, categoryTabs, RemapSchema } from '../features/finance/expense-categories.server.ts';
import { updateRecord } from '../platform/resources/resources.server.ts';
import { allow, resourceScreenAccess } from '../platform/screen/route-access.ts';
import { screenTitle } from '../platform/screen/navigation.ts';

export const meta: MetaFunction = () => [{ title: `${screenTitle('/expense-categories')} · Group Finance Hub` }];

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
    const { companies, current } = await categoryTabs(ctx, positiveIdParam(url.searchParams.get('company')));
    const companyId = current?.id ?? -1;
    const [list, counts] = await Promise.all([
      resourceLoader(expenseCategories, args, {
        listQuery: () => ({ companyId }),
        rowFields: ['departmentId', 'departmentName'],
        choiceLists: ['departments'],
      }),
      current ? categoryCounts(ctx, current.id) : { total: 0, mapped: 0 },
    ]);
    return json({ ...list, tabs: companies, currentCompanyId: current?.id ?? null, counts });
  });

const REMAP_FAILED = 'Failed to update department mapping';

const intents = {
  // The inline department select: an empty choice unmaps the category.
  remap: intent({
    allow: allow.to(expenseCategories.area, 'edit'),
    schema: RemapSchema,
    invalid: REMAP_FAILED,
    failed: REMAP_FAILED,
    run: async ({ id, departmentId }, screen) => {
      await updateRecord(screen.ctx, expenseCategories, id, { departmentId: departmentId ?? null });
      return succeed(screen, 'Department mapping updated successfully');
    },
  }),
};

export const access = resourceScreenAccess(expenseCategories, intents);

export const action = (args: ActionFunctionArgs) => resourceAction(expenseCategories, args, { intents });

function DepartmentSelect({
  row,
  departments,
}: {
  row: ScreenRowOf<typeof expenseCategories>;
  departments: { value: string; label: string }[];
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
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
        aria-label={`Department of ${row.name}`}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm"
        onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
        disabled={busy}
      >
        <option value="">None</option>
        {departments.map((d) => (
          <option key={d.value} value={d.value}>
            {d.label}
          </option>
        ))}
      </select>
      {/* Without JavaScript the change is sent with this button. */}
      <noscript>
        <button type="submit" className="rounded-md border border-slate-300 px-2 py-1 text-xs">
          Save
        </button>
      </noscript>
    </Form>
  );
}

export default function ExpenseCategoriesScreen() {
  const data = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const company = data.currentCompanyId ? String(data.currentCompanyId) : '';
  return (
    <ResourceScreen
      def={expenseCategories}
      fixed={company ? { companyId: company } : undefined}
      exportParams={company ? { companyId: company } : undefined}
      keep={{ company }}
      extraCell={{
        label: 'Department',
        render: (row) =>
          data.can.edit ? (
            <DepartmentSelect row={row} departments={data.choices.departments} />
          ) : (
            <span>{row.departmentName ?? 'None'}</span>
          ),
      }}
    >
      <TabNav
        label="Companies"
        current={company}
        tabs={data.tabs.map((c) => ({
          key: String(c.id),
          label: c.name,
          to: withParams(search, { company: c.id, page: null, q: null, departmentId: null, new: null, edit: null }),
        }))}
      />
      <div className="mb-4 grid gap-4 sm:grid-cols-2">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <p className="text-sm text-slate-500">Total Categories</p>
          <p className="text-2xl font-semibold" data-testid="category-count">
            {data.counts.total.toLocaleString('en-US')}
          </p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <p className="text-sm text-slate-500">Mapped to a Department</p>
          <p className="text-2xl font-semibold" data-testid="mapped-count">
            {data.counts.mapped.toLocaleString('en-US')}
          </p>
        </div>
      </div>
    </ResourceScreen>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
