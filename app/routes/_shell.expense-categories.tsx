// Expense Categories: one tab per company (?company=ID, default company 1), the counts of
// categories and of those mapped to a department, and inline department reassignment.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useSubmit } from '@remix-run/react';
import { ResourceScreen } from '../components/resource/resource-screen.tsx';
import { Alert } from '../components/ui/form.tsx';
import { listUrl, resourceAction, resourceLoader } from '../http/resource-screen.server.ts';
import { readFormData } from '../http/form.server.ts';
import { requireScreen, serviceContext } from '../http/session.server.ts';
import { redirectWithToast } from '../http/toast.server.ts';
import { positiveIdParam } from '../lib/query.ts';
import { withParams } from '../lib/url.ts';
import { expenseCategories } from '../resources/index.ts';
import { isDomainError } from '../services/errors.ts';
import { categoryCounts, categoryTabs } from '../services/expense-categories.server.ts';
import { updateRecord } from '../services/resources.server.ts';

export const meta: MetaFunction = () => [{ title: 'Expense Categories · Group Finance Hub' }];

function requestedCompany(url: URL): number | null {
  return positiveIdParam(url.searchParams.get('company'));
}

export async function loader(args: LoaderFunctionArgs) {
  const auth = await requireScreen(args.request, args.context);
  const ctx = serviceContext(args.request, args.context, auth);
  const url = new URL(args.request.url);
  const { companies, current } = await categoryTabs(ctx, requestedCompany(url));
  const companyId = current?.id ?? -1;
  const [list, counts] = await Promise.all([
    resourceLoader(expenseCategories, args, { listQuery: () => ({ companyId }) }),
    current ? categoryCounts(ctx, current.id) : { total: 0, mapped: 0 },
  ]);
  return json({ ...list, tabs: companies, currentCompanyId: current?.id ?? null, counts });
}

export async function action(args: ActionFunctionArgs) {
  const form = await readFormData(args.request.clone());
  if (form.get('intent') !== 'remap') return resourceAction(expenseCategories, args);
  const auth = await requireScreen(args.request, args.context);
  const ctx = serviceContext(args.request, args.context, auth);
  const id = Number(form.get('id'));
  const raw = String(form.get('departmentId') ?? '');
  try {
    if (!Number.isSafeInteger(id) || id < 1) throw new Error('bad id');
    await updateRecord(ctx, expenseCategories, id, { departmentId: raw === '' ? null : Number(raw) });
  } catch (error) {
    if (!isDomainError(error) && !(error instanceof Error && error.message === 'bad id')) throw error;
    return json({ intent: 'remap' as const, formError: 'Failed to update department mapping' }, { status: isDomainError(error) ? error.status : 400 });
  }
  return redirectWithToast(args.context, listUrl(new URL(args.request.url)), {
    type: 'success',
    title: 'Success',
    description: 'Department mapping updated successfully',
  });
}

function DepartmentSelect({ row, departments }: { row: Record<string, any>; departments: { value: string; label: string }[] }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'remap' && navigation.formData?.get('id') === String(row.id);
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
        {departments.map((d) => <option key={d.value} value={d.value}>{d.label}</option>)}
      </select>
      {/* Without JavaScript the change is sent with this button. */}
      <noscript>
        <button type="submit" className="rounded-md border border-slate-300 px-2 py-1 text-xs">Save</button>
      </noscript>
    </Form>
  );
}

export default function ExpenseCategoriesScreen() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<any>();
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
          data.can.edit ? <DepartmentSelect row={row} departments={data.choices.departments} /> : <span>{row.departmentName ?? 'None'}</span>,
      }}
    >
      {actionData?.intent === 'remap' && actionData.formError ? (
        <div className="mb-4"><Alert title="Error">{actionData.formError}</Alert></div>
      ) : null}
      <nav className="mb-4 flex flex-wrap gap-1 border-b border-slate-200" aria-label="Companies">
        {data.tabs.map((c) => (
          <Link
            key={c.id}
            to={withParams(search, { company: c.id, page: null, q: null, departmentId: null, new: null, edit: null })}
            aria-current={String(c.id) === company ? 'page' : undefined}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${String(c.id) === company ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {c.name}
          </Link>
        ))}
      </nav>
      <div className="mb-4 grid gap-4 sm:grid-cols-2">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <p className="text-sm text-slate-500">Total Categories</p>
          <p className="text-2xl font-semibold" data-testid="category-count">{data.counts.total.toLocaleString('en-US')}</p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <p className="text-sm text-slate-500">Mapped to a Department</p>
          <p className="text-2xl font-semibold" data-testid="mapped-count">{data.counts.mapped.toLocaleString('en-US')}</p>
        </div>
      </div>
    </ResourceScreen>
  );
}

export { ShellErrorBoundary as ErrorBoundary } from '../components/layout/error-screen.tsx';
