// User Management: heading with Add User, the forms opened through the URL
// (?new=1, ?edit=ID, ?permissions=ID), the answers of the last action (an error toast, the
// temporary password, the delete confirmation) and the four tabs.
import { Link, useLocation } from '@remix-run/react';
import type { PermissionFlag, Role } from '../../platform/lib/permissions.ts';
import { withParams } from '../../platform/lib/url.ts';
import { USER_TABS, type UserTab } from './schemas.ts';
import { PageHeading } from '../../ui/page-heading.tsx';
import { ConfirmDelete } from '../../platform/resources/delete-button.tsx';
import {
  formErrorOf,
  resultFor,
  TabNav,
  useCloseUrl,
  type ActionAnswer,
} from '../../platform/screen/action-result.tsx';
import { FormPanel } from '../../ui/form-panel.tsx';
import { PlusIcon } from '../../ui/icons.tsx';
import { ToastView } from '../../ui/toast.tsx';
import {
  AnalyticsTab,
  HistoryTab,
  StatisticsTab,
  type AnalyticsData,
  type HistoryData,
  type StatisticsData,
} from './activity-tabs.tsx';
import { TemporaryPasswordPanel, type TemporaryPasswordResult } from './temporary-password.tsx';
import { CreateUserForm, EditUserForm, PermissionsForm, type CompanyChoice, type EditableUser } from './user-forms.tsx';
import { UsersTab, type UsersTabData } from './users-tab.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';

/** What the screen's loader gives it. */
export interface UserManagementData {
  tab: UserTab;
  companies: (CompanyChoice & { type: string })[];
  roles: Role[];
  canCreate: boolean;
  allCompanies: boolean;
  creating: boolean;
  editing: EditableUser | null;
  permissionsFor: { user: EditableUser & Record<PermissionFlag, boolean>; baseline: PermissionFlag[] } | null;
  users: UsersTabData | null;
  statistics: StatisticsData | null;
  analytics: AnalyticsData | null;
  history: HistoryData | null;
}

/** What the action answers besides a failure: the temporary password, the confirmation step. */
export type UserManagementAction = ActionAnswer & {
  temporary?: TemporaryPasswordResult;
  id?: number;
  message?: string;
  action?: string;
  title?: string;
};

export function UserManagementScreen({
  data,
  actionData,
}: {
  data: UserManagementData;
  actionData: UserManagementAction | null;
}) {
  const t = useT();
  const { search } = useLocation();
  const closeTo = useCloseUrl();
  const failure = formErrorOf(actionData);
  const shared = { companies: data.companies, roles: data.roles, allCompanies: data.allCompanies, cancelTo: closeTo };
  return (
    <div>
      <PageHeading title={t('User Management')}>
        {data.canCreate ? (
          <Link
            to={withParams(search, { new: 1, edit: null, permissions: null })}
            preventScrollReset
            className="btn-primary"
          >
            <PlusIcon className="h-4 w-4" /> {t('Add User')}
          </Link>
        ) : null}
      </PageHeading>

      {/* User actions show the server message or a fallback toast titled Error. */}
      {failure ? <ToastView toast={{ type: 'error', title: t('Error'), description: t(failure) }} /> : null}
      {actionData?.intent === 'confirm-delete' && actionData.id && actionData.message ? (
        <ConfirmDelete
          id={actionData.id}
          message={actionData.message}
          action={actionData.action}
          title={actionData.title}
          cancelTo={closeTo}
        />
      ) : null}
      {actionData?.temporary ? <TemporaryPasswordPanel result={actionData.temporary} closeTo={closeTo} /> : null}

      {data.creating ? (
        <FormPanel title={t('Create New User')} closeTo={closeTo}>
          <CreateUserForm {...shared} lastResult={resultFor(actionData, 'create')} />
        </FormPanel>
      ) : null}
      {data.editing ? (
        <FormPanel title={t('Edit User')} closeTo={closeTo}>
          <EditUserForm
            key={data.editing.id}
            {...shared}
            user={data.editing}
            lastResult={resultFor(actionData, 'update')}
          />
        </FormPanel>
      ) : null}
      {data.permissionsFor ? (
        <FormPanel title={t('User Permissions')} closeTo={closeTo}>
          <PermissionsForm
            key={data.permissionsFor.user.id}
            user={data.permissionsFor.user}
            baseline={data.permissionsFor.baseline}
            cancelTo={closeTo}
          />
        </FormPanel>
      ) : null}

      <TabNav
        label={t('User management tabs')}
        current={data.tab}
        tabs={USER_TABS.map((tab) => ({ ...tab, label: t(tab.label), to: `?tab=${tab.key}` }))}
      />
      {data.users ? <UsersTab data={data.users} companies={data.companies} /> : null}
      {data.statistics ? <StatisticsTab data={data.statistics} /> : null}
      {data.analytics ? <AnalyticsTab data={data.analytics} /> : null}
      {data.history ? <HistoryTab data={data.history} /> : null}
    </div>
  );
}
