// User Management (spec 3 §2.1): heading with Add User, the forms opened through the URL
// (?new=1, ?edit=ID, ?permissions=ID), the answers of the last action (error toast, temporary
// password, delete confirmation) and the four tabs.
import type { SerializeFrom } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import type { SubmissionResult } from '@conform-to/react';
import type { userManagementLoader } from '../../http/user-management-screen.server.ts';
import type { Toast } from '../../lib/toast.ts';
import type { PermissionFlag } from '../../lib/permissions.ts';
import { withParams } from '../../lib/url.ts';
import { PageHeading } from '../layout/app-shell.tsx';
import { ConfirmDelete } from '../resource/delete-button.tsx';
import { FormPanel } from '../ui/form-panel.tsx';
import { PlusIcon } from '../ui/icons.tsx';
import { ToastView } from '../ui/toast.tsx';
import { AnalyticsTab, HistoryTab, StatisticsTab, type AnalyticsData, type HistoryData, type StatisticsData } from './activity-tabs.tsx';
import { USER_TABS } from './schemas.ts';
import { TemporaryPasswordPanel, type TemporaryPasswordResult } from './temporary-password.tsx';
import { CreateUserForm, EditUserForm, PermissionsForm, type EditableUser } from './user-forms.tsx';
import { UsersTab, type UsersTabData } from './users-tab.tsx';

type LoaderData = SerializeFrom<typeof userManagementLoader>;

/** The action's answers, loosely typed (one shape per intent). */
interface ActionData {
  intent: string;
  id?: number;
  toast?: Toast | null;
  result?: SubmissionResult<string[]>;
  temporary?: TemporaryPasswordResult;
  message?: string;
}

/** The current URL without the forms' parameters. */
function useCloseUrl(): string {
  const { pathname, search } = useLocation();
  const params = withParams(search, { new: null, edit: null, permissions: null });
  return `${pathname}${params === '?' ? '' : params}`;
}

function Tabs({ current }: { current: string }) {
  return (
    <nav className="mb-4 flex flex-wrap gap-1 border-b border-slate-200" aria-label="User management tabs">
      {USER_TABS.map((t) => (
        <Link
          key={t.key}
          to={`?tab=${t.key}`}
          aria-current={t.key === current ? 'page' : undefined}
          className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${t.key === current ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

export function UserManagementScreen() {
  const data = useLoaderData<LoaderData>();
  const actionData = useActionData<ActionData>() ?? null;
  const { search } = useLocation();
  const closeTo = useCloseUrl();
  const formResult = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  const shared = { companies: data.companies, roles: data.roles, allCompanies: data.allCompanies, cancelTo: closeTo };
  return (
    <div>
      <PageHeading title="User Management">
        {data.canCreate ? (
          <Link
            to={withParams(search, { new: 1, edit: null, permissions: null })}
            preventScrollReset
            className="inline-flex items-center gap-2 rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-blue-800"
          >
            <PlusIcon className="h-4 w-4" /> Add User
          </Link>
        ) : null}
      </PageHeading>

      {actionData?.toast ? <ToastView toast={actionData.toast} /> : null}
      {actionData?.intent === 'confirm-delete' && actionData.id && actionData.message ? (
        <ConfirmDelete id={actionData.id} message={actionData.message} cancelTo={closeTo} />
      ) : null}
      {actionData?.temporary ? <TemporaryPasswordPanel result={actionData.temporary} closeTo={closeTo} /> : null}

      {data.creating ? (
        <FormPanel title="Create New User" closeTo={closeTo}>
          <CreateUserForm {...shared} lastResult={formResult('create')} />
        </FormPanel>
      ) : null}
      {data.editing ? (
        <FormPanel title="Edit User" closeTo={closeTo}>
          <EditUserForm key={data.editing.id} {...shared} user={data.editing as EditableUser} lastResult={formResult('update')} />
        </FormPanel>
      ) : null}
      {data.permissionsFor ? (
        <FormPanel title="User Permissions" closeTo={closeTo}>
          <PermissionsForm
            key={data.permissionsFor.user.id}
            user={data.permissionsFor.user as EditableUser & Record<PermissionFlag, boolean>}
            baseline={data.permissionsFor.baseline as PermissionFlag[]}
            cancelTo={closeTo}
          />
        </FormPanel>
      ) : null}

      <Tabs current={data.tab} />
      {data.users ? <UsersTab data={data.users as UsersTabData} companies={data.companies} /> : null}
      {data.statistics ? <StatisticsTab data={data.statistics as StatisticsData} /> : null}
      {data.analytics ? <AnalyticsTab data={data.analytics as AnalyticsData} /> : null}
      {data.history ? <HistoryTab data={data.history as HistoryData} /> : null}
    </div>
  );
}
