// The Users tab: filters (a GET form), the sortable table with row actions, and the footer
// 'Showing N of total users' with Previous/Next. Everything is links and forms, so it works
// without JavaScript; with it the filters apply as they change, and deletes, temporary passwords
// and deactivations ask confirm() (without it the server asks first).
import { Form, Link, useLocation, useNavigation, useSubmit } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { ROLE_LABELS, ROLES, type Role } from '../../platform/lib/permissions.ts';
import { withParams } from '../../platform/lib/url.ts';
import { DeleteButton } from '../../platform/resources/delete-button.tsx';
import { inputClass } from '../../ui/form.tsx';
import { LockIcon, PencilIcon, SearchIcon, ShieldIcon, TrashIcon } from '../../ui/icons.tsx';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import {
  confirmDeactivateUserMessage,
  confirmDeleteUserMessage,
  confirmResetTwoFactorMessage,
  confirmTemporaryPasswordMessage,
} from './schemas.ts';
import { ConfirmingForm } from '../../platform/screen/confirm.tsx';
import type { CompanyChoice } from './user-forms.tsx';
import { ScrollRegion } from '../../ui/table/scroll-region.tsx';
import { columnLabels } from '../../ui/table/column-labels.ts';

export interface UserRow {
  id: number;
  username: string;
  email: string;
  fullName: string | null;
  role: Role;
  isActive: boolean;
  lastLoginAt: string | null;
  company: { id: number; name: string } | null;
  can: {
    edit: boolean;
    permissions: boolean;
    temporaryPassword: boolean;
    deactivate: boolean;
    delete: boolean;
    resetTwoFactor: boolean;
  };
  /** Two-factor authentication is on for this user. */
  twoFactor: boolean;
}

export interface UsersTabData {
  filters: {
    q: string;
    role: string;
    company: string;
    inactive: boolean;
    sort: string | null;
    dir: 'asc' | 'desc' | null;
  };
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  users: UserRow[];
}

/** Role badge colours: owner red, admin orange, editor blue, viewer gray. */
const ROLE_BADGE: Record<Role, string> = {
  owner: 'bg-red-100 text-red-800',
  admin: 'bg-orange-100 text-orange-800',
  editor: 'bg-blue-100 text-blue-800',
  viewer: 'bg-gray-100 text-gray-800',
};

export function RoleBadge({ role }: { role: Role }) {
  const t = useT();
  return (
    <span
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${ROLE_BADGE[role]}`}
      data-role={role}
    >
      {t(ROLE_LABELS[role])}
    </span>
  );
}

export function StatusBadge({ active }: { active: boolean }) {
  const t = useT();
  return active ? (
    <span className="inline-flex rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">
      {t('Active')}
    </span>
  ) : (
    <span className="inline-flex rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700">
      {t('Inactive')}
    </span>
  );
}

function Filters({ data, companies }: { data: UsersTabData; companies: CompanyChoice[] }) {
  const t = useT();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const autoSubmit = (delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => formRef.current && submit(formRef.current, { replace: true, preventScrollReset: true }),
      delay,
    );
  };
  const { filters } = data;
  return (
    <Form
      method="get"
      ref={formRef}
      role="search"
      aria-label={t('Filter users')}
      className="flex flex-wrap items-end gap-2 border-b border-slate-200 p-4"
      preventScrollReset
      // A search sent with the button makes a pending delayed one redundant.
      onSubmit={() => clearTimeout(timer.current)}
    >
      <input type="hidden" name="tab" value="users" />
      {filters.sort ? <input type="hidden" name="sort" value={filters.sort} /> : null}
      {filters.dir ? <input type="hidden" name="dir" value={filters.dir} /> : null}
      <label className="min-w-[12rem] flex-1">
        <span className="sr-only">{t('Search users')}</span>
        <input
          type="search"
          name="q"
          defaultValue={filters.q}
          placeholder={t('Search users...')}
          className={inputClass}
          onChange={() => autoSubmit(350)}
        />
      </label>
      <label>
        <span className="sr-only">{t('Role')}</span>
        <select
          name="role"
          defaultValue={filters.role}
          aria-label={t('Role')}
          className={inputClass}
          onChange={() => autoSubmit(0)}
        >
          <option value="">{t('All Roles')}</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(ROLE_LABELS[r])}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="sr-only">{t('Company')}</span>
        <select
          name="company"
          defaultValue={filters.company}
          aria-label={t('Company')}
          className={inputClass}
          onChange={() => autoSubmit(0)}
        >
          <option value="">{t('All Companies')}</option>
          {companies.map((c) => (
            <option key={c.id} value={String(c.id)} translate="no">
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 px-2 py-2 text-sm text-slate-700">
        <input
          type="checkbox"
          name="inactive"
          value="1"
          defaultChecked={filters.inactive}
          role="switch"
          className="h-4 w-4 rounded border-slate-300"
          onChange={() => autoSubmit(0)}
        />
        {t('Show Inactive')}
      </label>
      <button type="submit" className="btn-tool">
        <SearchIcon className="h-4 w-4" /> {t('Search')}
      </button>
    </Form>
  );
}

function SortHeader({ label, sortKey, filters }: { label: string; sortKey: string; filters: UsersTabData['filters'] }) {
  const { search } = useLocation();
  const active = filters.sort === sortKey;
  const current = active ? (filters.dir ?? 'asc') : null;
  const next = current === 'asc' ? 'desc' : 'asc';
  return (
    <Link to={withParams(search, { sort: sortKey, dir: next, page: null })} preventScrollReset className="sort-link">
      {label}
      <span aria-hidden="true" className="text-xs">
        {active ? (current === 'asc' ? '▲' : '▼') : '↕'}
      </span>
    </Link>
  );
}

/** aria-sort of a column header (on the th: a link may not carry it). */
function ariaSort(sortKey: string, filters: UsersTabData['filters']): 'ascending' | 'descending' | undefined {
  if (filters.sort !== sortKey) return undefined;
  return (filters.dir ?? 'asc') === 'asc' ? 'ascending' : 'descending';
}

const iconButton = 'rounded p-1.5 hover:bg-slate-100';
const disabledButton = 'rounded p-1.5 text-slate-300 cursor-not-allowed';

/**
 * A POST with one intent, as an icon button (disabled when not allowed). With `confirm` it asks
 * first, as a delete does: confirm() with JavaScript, the server's confirmation step without.
 */
function IntentButton({
  intent,
  id,
  label,
  allowed,
  className,
  confirm,
  children,
}: {
  intent: string;
  id: number;
  label: string;
  allowed: boolean;
  className: string;
  confirm?: string;
  children: React.ReactNode;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData?.get('id') === String(id);
  const button = (
    <button
      type="submit"
      disabled={!allowed || busy}
      className={allowed ? `${iconButton} ${className}` : disabledButton}
      title={label}
      aria-label={label}
    >
      {children}
    </button>
  );
  if (confirm && allowed)
    return (
      <ConfirmingForm message={confirm} fields={{ intent, id }}>
        {button}
      </ConfirmingForm>
    );
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {button}
    </Form>
  );
}

function RowActions({ user }: { user: UserRow }) {
  const t = useT();
  const { search } = useLocation();
  const name = user.username;
  return (
    <div className="flex justify-end gap-1">
      {user.can.edit ? (
        <Link
          to={withParams(search, { edit: user.id, new: null, permissions: null })}
          preventScrollReset
          className={`${iconButton} text-blue-700`}
          title={t('Edit')}
          aria-label={t('Edit {name}', { name })}
        >
          <PencilIcon className="h-4 w-4" />
        </Link>
      ) : (
        <span className={disabledButton} aria-hidden="true">
          <PencilIcon className="h-4 w-4" />
        </span>
      )}
      {user.can.permissions ? (
        <Link
          to={withParams(search, { permissions: user.id, new: null, edit: null })}
          preventScrollReset
          className={`${iconButton} text-indigo-700`}
          title={t('Permissions')}
          aria-label={t('Permissions of {name}', { name })}
        >
          <ShieldIcon className="h-4 w-4" />
        </Link>
      ) : (
        <span className={disabledButton} aria-hidden="true">
          <ShieldIcon className="h-4 w-4" />
        </span>
      )}
      <IntentButton
        intent="temporary-password"
        id={user.id}
        label={t('Create temporary password for {name}', { name })}
        allowed={user.can.temporaryPassword}
        className="text-amber-700"
        confirm={confirmTemporaryPasswordMessage(name, t)}
      >
        <LockIcon className="h-4 w-4" />
      </IntentButton>
      {user.can.resetTwoFactor ? (
        <IntentButton
          intent="reset-two-factor"
          id={user.id}
          label={t('Reset two-factor authentication of {name}', { name })}
          allowed
          className="text-red-700"
          confirm={confirmResetTwoFactorMessage(name, t)}
        >
          <span className="text-xs font-medium">{t('Reset 2FA')}</span>
        </IntentButton>
      ) : null}
      {user.isActive ? (
        <IntentButton
          intent="deactivate"
          id={user.id}
          label={t('Deactivate {name}', { name })}
          allowed={user.can.deactivate}
          className="text-orange-700"
          confirm={confirmDeactivateUserMessage(name, t)}
        >
          <span className="text-xs font-medium">{t('Deactivate')}</span>
        </IntentButton>
      ) : (
        <IntentButton
          intent="activate"
          id={user.id}
          label={t('Activate {name}', { name })}
          allowed={user.can.edit}
          className="text-green-700"
        >
          <span className="text-xs font-medium">{t('Activate')}</span>
        </IntentButton>
      )}
      {user.can.delete ? (
        <DeleteButton id={user.id} label={name} message={confirmDeleteUserMessage(name, t)} />
      ) : (
        <button
          type="button"
          disabled
          className={disabledButton}
          title={t('Delete')}
          aria-label={t('Delete {label}', { label: name })}
        >
          <TrashIcon className="h-4 w-4" />
        </button>
      )}
    </div>
  );
}

export function UsersTab({ data, companies }: { data: UsersTabData; companies: CompanyChoice[] }) {
  const t = useT();
  const { search } = useLocation();
  const navigation = useNavigation();
  const loading = navigation.state === 'loading';
  const { filters } = data;
  const header = 'px-3 py-3';
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm" aria-busy={loading}>
      <Filters data={data} companies={companies} />
      <ScrollRegion label={t('Users')}>
        <table
          className="fit-table min-w-full divide-y divide-slate-200 text-sm"
          style={columnLabels([t('User'), t('Role'), t('Company'), t('Status'), t('Last Login')])}
        >
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" aria-sort={ariaSort('username', filters)} className={header}>
                <SortHeader label={t('User')} sortKey="username" filters={filters} />
              </th>
              <th scope="col" aria-sort={ariaSort('role', filters)} className={header}>
                <SortHeader label={t('Role')} sortKey="role" filters={filters} />
              </th>
              <th scope="col" aria-sort={ariaSort('company', filters)} className={header}>
                <SortHeader label={t('Company')} sortKey="company" filters={filters} />
              </th>
              <th scope="col" aria-sort={ariaSort('isActive', filters)} className={header}>
                <SortHeader label={t('Status')} sortKey="isActive" filters={filters} />
              </th>
              <th scope="col" aria-sort={ariaSort('lastLoginAt', filters)} className={header}>
                <SortHeader label={t('Last Login')} sortKey="lastLoginAt" filters={filters} />
              </th>
              <th scope="col" className={`${header} text-right`}>
                {t('Actions')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 bg-white">
            {data.users.length === 0 ? (
              <tr>
                <td colSpan={6} className="px-4 py-10 text-center text-slate-500">
                  {t('No users found.')}
                </td>
              </tr>
            ) : (
              data.users.map((user) => (
                <tr key={user.id} className="hover:bg-slate-50" data-testid="user-row" data-user-id={user.id}>
                  <td className="wrap-anywhere px-3 py-3">
                    <p className="font-medium text-slate-900" translate="no">
                      {user.fullName || user.username}
                    </p>
                    <p className="text-xs text-slate-500" translate="no">
                      {user.fullName ? `${user.username} · ` : ''}
                      {user.email}
                    </p>
                  </td>
                  <td className="px-3 py-3">
                    <RoleBadge role={user.role} />
                    {user.twoFactor ? (
                      <span
                        className="ml-1 inline-flex whitespace-nowrap rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800"
                        title={t('Two-factor authentication is on')}
                      >
                        {t('2FA')}
                      </span>
                    ) : null}
                  </td>
                  <td className="px-3 py-3">
                    {user.company ? <span translate="no">{user.company.name}</span> : t('All Companies')}
                  </td>
                  <td className="px-3 py-3">
                    <StatusBadge active={user.isActive} />
                  </td>
                  <td className="px-3 py-3 whitespace-nowrap nowrap">
                    {user.lastLoginAt ? <DateTime value={user.lastLoginAt} kind="instant" /> : t('Never')}
                  </td>
                  <td className="px-3 py-2">
                    <RowActions user={user} />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </ScrollRegion>
      <nav className="pager-bar" aria-label={t('Pagination')}>
        <p className="text-sm text-slate-600" data-testid="showing">
          {t('Showing {shown} of {total} users', { shown: data.users.length, total: data.total })}
        </p>
        <PrevNext search={search} page={data.page} totalPages={data.totalPages} />
      </nav>
    </section>
  );
}

export function PrevNext({ search, page, totalPages }: { search: string; page: number; totalPages: number }) {
  const t = useT();
  const link = 'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50';
  const disabled = 'rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-500';
  return (
    <div className="flex items-center gap-2">
      {page > 1 ? (
        <Link to={withParams(search, { page: page - 1 })} className={link} preventScrollReset>
          {t('Previous')}
        </Link>
      ) : (
        <span className={disabled} aria-disabled="true">
          {t('Previous')}
        </span>
      )}
      <span className="text-sm text-slate-600">
        {t('Page {page} of {pages}', { page, pages: Math.max(1, totalPages) })}
      </span>
      {page < totalPages ? (
        <Link to={withParams(search, { page: page + 1 })} className={link} preventScrollReset>
          {t('Next')}
        </Link>
      ) : (
        <span className={disabled} aria-disabled="true">
          {t('Next')}
        </span>
      )}
    </div>
  );
}
