// Loader and action of the User Management screen (/user-management). The URL holds the tab
// (?tab=users|statistics|analytics|history), the list state (?q ?role ?company ?inactive ?sort
// ?dir ?page; history: ?userId ?startDate ?endDate ?action ?tableName ?page) and the open form
// (?new=1, ?edit=ID, ?permissions=ID). The action handles every write by `intent`; the
// services authorise each call again (owner protections, company scope).
import { parseWithZod } from '@conform-to/zod/v4';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import {
  CreateUserFormSchema,
  EditUserFormSchema,
  confirmDeleteUserMessage,
  parseTab,
  permissionsFromForm,
  USER_MESSAGES,
} from '../components/users/schemas.ts';
import { canManageUser, PERMISSION_FLAGS, ROLE_BASELINE, ROLES, type Principal, type Role } from '../lib/permissions.ts';
import { listVisibleCompanies } from '../services/companies.server.ts';
import type { AuthUser, ServiceContext } from '../services/context.ts';
import { DEFAULT_MESSAGES, isDomainError, type DomainError } from '../services/errors.ts';
import { HISTORY_PAGE_SIZE, PAGE_SIZE } from '../lib/paging.ts';
import { userActivityAnalytics, userActivityHistory } from '../services/user-activity.server.ts';
import {
  createUser,
  deleteUser,
  getUser,
  issueTemporaryPassword,
  listUsersPage,
  setUserActive,
  updateUser,
  updateUserPermissions,
  userStats,
  type ListedUser,
} from '../services/users.server.ts';
import { readFormData } from './form.server.ts';
import { requireScreen, serviceContext } from './session.server.ts';
import { redirectWithToast } from './toast.server.ts';

/** Sortable columns of the Users tab (URL value → service sortBy). */
export const USER_SORTS = ['username', 'role', 'company', 'isActive', 'lastLoginAt'] as const;

export interface RowAbilities {
  edit: boolean;
  permissions: boolean;
  temporaryPassword: boolean;
  deactivate: boolean;
  delete: boolean;
}

/** What the signed-in user may do to one listed user (the services enforce the same rules). */
export function rowAbilities(actor: Principal, target: Pick<Principal, 'id' | 'role' | 'companyId'>): RowAbilities {
  const self = actor.id === target.id;
  return {
    edit: canManageUser(actor, 'edit', target),
    permissions: !self && canManageUser(actor, 'permissions', target),
    temporaryPassword: !self && canManageUser(actor, 'temporaryPassword', target),
    deactivate: canManageUser(actor, 'deactivate', target),
    delete: canManageUser(actor, 'delete', target),
  };
}

async function screenContext(args: LoaderFunctionArgs | ActionFunctionArgs): Promise<{ ctx: ServiceContext; user: AuthUser }> {
  const auth = await requireScreen(args.request, args.context);
  return { ctx: serviceContext(args.request, args.context, auth), user: auth.user };
}

function asResponse(error: unknown): never {
  if (isDomainError(error)) throw new Response(error.message, { status: error.status });
  throw error;
}

const positiveInt = (value: string | null): number | null => (value && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : null);

/** Roles the signed-in user may give (only an owner gives owner or admin). */
export function roleChoices(actor: Principal): Role[] {
  return ROLES.filter((role) => canManageUser(actor, 'create', null, role));
}

async function usersTab(ctx: ServiceContext, actor: AuthUser, params: URLSearchParams) {
  const q = (params.get('q') ?? '').trim().slice(0, 200);
  const role = ROLES.includes(params.get('role') as Role) ? (params.get('role') as Role) : '';
  const company = positiveInt(params.get('company'));
  const inactive = params.get('inactive') === '1' || params.get('inactive') === 'on';
  const sort = USER_SORTS.includes(params.get('sort') as (typeof USER_SORTS)[number]) ? (params.get('sort') as (typeof USER_SORTS)[number]) : null;
  const dir = params.get('dir') === 'asc' ? 'asc' : params.get('dir') === 'desc' ? 'desc' : null;
  let page = positiveInt(params.get('page')) ?? 1;
  const query = (p: number) => ({
    page: p,
    limit: PAGE_SIZE,
    sortBy: sort ?? 'createdAt',
    sortOrder: dir ?? (sort ? 'asc' : 'desc'),
    search: q || undefined,
    role: role || undefined,
    company: company ? String(company) : undefined,
    // Active users by default; 'Show Inactive' lists the inactive ones as well.
    isActive: inactive ? undefined : 'true',
  });
  let list = await listUsersPage(ctx, query(page));
  if (page > 1 && page > list.totalPages) {
    // A page beyond the end (a stale link, a deactivated row) shows the last page.
    page = Math.max(1, list.totalPages);
    list = await listUsersPage(ctx, query(page));
  }
  return {
    filters: { q, role, company: company ? String(company) : '', inactive, sort, dir },
    page,
    pageSize: PAGE_SIZE,
    total: list.total,
    totalPages: list.totalPages,
    users: list.users.map((user) => ({ ...user, can: rowAbilities(actor, user) })),
  };
}

async function historyTab(ctx: ServiceContext, params: URLSearchParams) {
  const filters = {
    userId: params.get('userId') ?? '',
    startDate: params.get('startDate') ?? '',
    endDate: params.get('endDate') ?? '',
    action: params.get('action') ?? '',
    tableName: params.get('tableName') ?? '',
  };
  const page = positiveInt(params.get('page')) ?? 1;
  const people = await listUsersPage(ctx, { limit: 1000, sortBy: 'username', sortOrder: 'asc' });
  const userChoices = people.users.map((u) => ({ value: String(u.id), label: u.fullName ? `${u.fullName} (${u.username})` : u.username }));
  try {
    const result = await userActivityHistory(ctx, { ...filters, limit: HISTORY_PAGE_SIZE, page });
    return { filters, page, pageSize: HISTORY_PAGE_SIZE, ...result, userChoices, error: null as string | null };
  } catch (error) {
    if (!isDomainError(error) || error.kind !== 'invalid') throw error;
    // A bad filter (a hand-edited URL, an end date before the start) shows why, with no rows.
    const error_ = error.errors?.map((e) => e.message).join('; ') ?? error.message;
    return { filters, page: 1, pageSize: HISTORY_PAGE_SIZE, events: [], total: 0, totalPages: 0, limit: HISTORY_PAGE_SIZE, offset: 0, userChoices, error: error_ };
  }
}

export async function userManagementLoader(args: LoaderFunctionArgs) {
  const { ctx, user: actor } = await screenContext(args);
  const url = new URL(args.request.url);
  const params = url.searchParams;
  const tab = parseTab(params.get('tab'));
  try {
    const companies = await listVisibleCompanies(ctx.db, actor);
    const canCreate = canManageUser(actor, 'create', null);
    const [users, statistics, analytics, history] = await Promise.all([
      tab === 'users' ? usersTab(ctx, actor, params) : null,
      tab === 'statistics' ? userStats(ctx) : null,
      tab === 'analytics' ? userActivityAnalytics(ctx) : null,
      tab === 'history' ? historyTab(ctx, params) : null,
    ]);
    const editId = positiveInt(params.get('edit'));
    const permissionsId = positiveInt(params.get('permissions'));
    const editing = editId ? await openable(ctx, actor, editId, 'edit') : null;
    const permissionsFor = permissionsId ? await openable(ctx, actor, permissionsId, 'permissions') : null;
    return json({
      tab,
      actorId: actor.id,
      companies,
      roles: roleChoices(actor),
      canCreate,
      /** A company-scoped manager creates users of their own company only. */
      allCompanies: actor.companyId === null,
      creating: params.get('new') === '1' && canCreate,
      editing,
      permissionsFor: permissionsFor
        ? { user: permissionsFor, baseline: [...ROLE_BASELINE[permissionsFor.role]] }
        : null,
      users,
      statistics,
      analytics,
      history,
    });
  } catch (error) {
    asResponse(error);
  }
}

/** The user a form is opened for, when the signed-in user may use that form on them. */
async function openable(ctx: ServiceContext, actor: AuthUser, id: number, form: 'edit' | 'permissions'): Promise<ListedUser | null> {
  const user = await getUser(ctx, id);
  const can = rowAbilities(actor, user);
  return can[form] ? user : null;
}

export type UserManagementLoaderData = Awaited<ReturnType<typeof userManagementLoader>>;

/** The list URL without the forms' parameters: where a successful write returns. */
export function listUrl(url: URL): string {
  const params = new URLSearchParams(url.searchParams);
  for (const key of ['new', 'edit', 'permissions', 'index']) params.delete(key);
  const search = params.toString();
  return `${url.pathname}${search ? `?${search}` : ''}`;
}

/** The server's message when it says something specific, else the specification's fallback. */
function errorText(error: DomainError, fallback: string): string {
  return Object.values(DEFAULT_MESSAGES).includes(error.message) ? fallback : error.message;
}

const errorToast = (description: string) => ({ type: 'error' as const, title: 'Error', description });

export async function userManagementAction(args: ActionFunctionArgs) {
  const { ctx } = await screenContext(args);
  const url = new URL(args.request.url);
  const form = await readFormData(args.request);
  const intent = String(form.get('intent') ?? '');
  const rawId = String(form.get('id') ?? '');
  const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : 0;
  const back = listUrl(url);
  const success = (description: string) => redirectWithToast(args.context, back, { type: 'success', title: 'Success', description });
  const failure = (error: unknown, fallback: string) => {
    if (!isDomainError(error)) throw error;
    return json({ intent, toast: errorToast(errorText(error, fallback)) }, { status: error.status });
  };

  if (intent === 'create' || intent === 'update') {
    const creating = intent === 'create';
    const submission = parseWithZod(form, { schema: creating ? CreateUserFormSchema : EditUserFormSchema });
    const failed = creating ? USER_MESSAGES.createFailed : USER_MESSAGES.updateFailed;
    const hidden = { hideFields: ['password'] };
    if (submission.status !== 'success') {
      return json({ intent, id, result: submission.reply(hidden), toast: null }, { status: 400 });
    }
    try {
      if (creating) await createUser(ctx, submission.value);
      else {
        if (!id) throw new Response('Not Found', { status: 404 });
        await updateUser(ctx, id, submission.value);
      }
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const fieldErrors = Object.fromEntries((error.errors ?? []).map((e) => [e.field, [e.message]]));
      return json(
        { intent, id, result: submission.reply({ ...hidden, fieldErrors }), toast: error.errors ? null : errorToast(errorText(error, failed)) },
        { status: error.status },
      );
    }
    return success(creating ? USER_MESSAGES.created : USER_MESSAGES.updated);
  }

  if (!id) return json({ intent, toast: errorToast('Unknown user') }, { status: 400 });

  switch (intent) {
    case 'permissions': {
      try {
        const target = await getUser(ctx, id);
        // Flags the role already grants are shown checked and locked; they are not posted.
        const baseline = new Set(ROLE_BASELINE[target.role]);
        await updateUserPermissions(ctx, id, permissionsFromForm(form, PERMISSION_FLAGS.filter((f) => !baseline.has(f))));
      } catch (error) {
        return failure(error, USER_MESSAGES.permissionsFailed);
      }
      return success(USER_MESSAGES.permissions);
    }
    case 'temporary-password': {
      try {
        const { user, temporaryPassword } = await issueTemporaryPassword(ctx, id);
        // Shown once, in this answer only (never in the URL or a cookie). The hydration data
        // carries it base64-encoded, so the page holds it in plain text once: the input.
        return json({
          intent,
          toast: null,
          temporary: { id: user.id, username: user.username, email: user.email, secret: Buffer.from(temporaryPassword, 'utf8').toString('base64') },
        }, { headers: { 'Cache-Control': 'no-store' } });
      } catch (error) {
        return failure(error, USER_MESSAGES.temporaryFailed);
      }
    }
    case 'deactivate':
    case 'activate': {
      const active = intent === 'activate';
      try {
        await setUserActive(ctx, id, active);
      } catch (error) {
        return failure(error, active ? USER_MESSAGES.reactivateFailed : USER_MESSAGES.deactivateFailed);
      }
      return success(active ? USER_MESSAGES.reactivated : USER_MESSAGES.deactivated);
    }
    case 'delete': {
      if (form.get('confirmed') !== '1') {
        // No JavaScript, so no confirm(): answer the confirmation step first (DESIGN §8).
        try {
          const target = await getUser(ctx, id);
          return json({ intent: 'confirm-delete' as const, toast: null, id, message: confirmDeleteUserMessage(target.username) });
        } catch (error) {
          return failure(error, USER_MESSAGES.deleteFailed);
        }
      }
      try {
        await deleteUser(ctx, id);
      } catch (error) {
        return failure(error, USER_MESSAGES.deleteFailed);
      }
      return success(USER_MESSAGES.deleted);
    }
    default:
      return json({ intent, toast: errorToast('Unknown action') }, { status: 400 });
  }
}
