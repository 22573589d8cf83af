// The /user-management route's server half: users, statistics, activity analytics and activity
// history. The URL holds the tab (?tab=), each tab's filters and page, and the open form (?new=1,
// ?edit=ID, ?permissions=ID); every write is an intent of the action. The services authorise
// each call again (owner protections, company scope).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import type { UserManagementData } from './user-management-screen.tsx';
import {
  clampedPage,
  confirmationStep,
  formRowId,
  loadScreen,
  screenAction,
  succeed,
  tabOf,
  type Screen,
} from '../../platform/screen/screen.server.ts';
import { intent } from '../../platform/screen/intent.ts';
import type { AuthUser, ServiceContext } from '../../platform/context.ts';
import type { ListedUser } from './answers.ts';
import { resetTwoFactor, usersWithTwoFactor } from '../auth/index.server.ts';
import { HISTORY_PAGE_SIZE, lastPage, PAGE_SIZE } from '../../platform/lib/paging.ts';
import { PERMISSION_FLAGS, ROLE_BASELINE } from '../../platform/lib/permissions.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import {
  confirmDeactivateUserMessage,
  confirmDeleteUserMessage,
  confirmResetTwoFactorMessage,
  confirmTemporaryPasswordMessage,
  CreateUserFormSchema,
  EditUserFormSchema,
  permissionsFromForm,
  USER_CONFIRM_TITLES,
  USER_MESSAGES,
  USER_SORTS,
  USER_TABS,
} from './schemas.ts';
import { listVisibleCompanies } from '../../platform/companies.server.ts';
import { isDomainError, refusalLine } from '../../platform/errors.ts';
import {
  historyUserChoices,
  historyUserNamed,
  userActivityAnalytics,
  userActivityHistory,
} from './user-activity.server.ts';
import { assertMayManage, loadTarget, roleChoices, rowAbilities } from './user-policy.server.ts';
import {
  createUser,
  deleteUser,
  getUser,
  issueTemporaryPassword,
  listUsersPage,
  setUserActive,
  updateUser,
  updateUserPermissions,
} from './users.server.ts';
import { userStats } from './user-stats.server.ts';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { requestI18n } from '../shell/index.server.ts';
import { relativeTime } from '../../platform/i18n/relative-time.ts';
import { readTypedDays } from '../../platform/i18n/day-input.ts';
import { asReader } from '../../platform/i18n/refusal-words.ts';

async function usersTab({ ctx, user, url }: Screen) {
  const params = url.searchParams;
  const q = (params.get('q') ?? '').trim().slice(0, 200);
  const role = params.get('role') ?? '';
  const company = positiveIdParam(params.get('company'));
  const inactive = params.get('inactive') === '1' || params.get('inactive') === 'on';
  const sort = USER_SORTS.find((s) => s === params.get('sort')) ?? null;
  const dir = (['asc', 'desc'] as const).find((d) => d === params.get('dir')) ?? null;
  const { page, result } = await clampedPage(
    positiveIdParam(params.get('page')) ?? 1,
    (p) =>
      listUsersPage(ctx, {
        page: p,
        limit: PAGE_SIZE,
        sortBy: sort ?? 'createdAt',
        sortOrder: dir ?? (sort ? 'asc' : 'desc'),
        search: q,
        role: role === '' ? undefined : role,
        company: company ? String(company) : undefined,
        // Active users by default; 'Show Inactive' lists the inactive ones as well.
        isActive: inactive ? undefined : 'true',
      }),
    (list) => list.totalPages,
  );
  return {
    filters: { q, role, company: company ? String(company) : '', inactive, sort, dir },
    page,
    pageSize: PAGE_SIZE,
    total: result.total,
    totalPages: result.totalPages,
    users: await withTwoFactor(ctx, user, result.users),
  };
}

/** Each listed user's two-factor state (one query for the page) and whether this owner may reset it. */
async function withTwoFactor<T extends ListedUser>(ctx: ServiceContext, actor: AuthUser, users: T[]) {
  const on = await usersWithTwoFactor(
    ctx.db,
    users.map((u) => u.id),
  );
  return users.map((listed) => ({
    ...listed,
    twoFactor: on.has(listed.id),
    can: {
      ...rowAbilities(actor, listed),
      resetTwoFactor: actor.role === 'owner' && listed.id !== actor.id && on.has(listed.id),
    },
  }));
}

async function historyTab({ ctx, url, request, auth }: Screen) {
  const { t, preferences } = requestI18n(request, auth);
  const params = url.searchParams;
  const filters = {
    userId: params.get('userId') ?? '',
    startDate: params.get('startDate') ?? '',
    endDate: params.get('endDate') ?? '',
    action: params.get('action') ?? '',
    tableName: params.get('tableName') ?? '',
  };
  const page = positiveIdParam(params.get('page')) ?? 1;
  // The user: an id, or a username or e-mail typed into the text box shown when there are many.
  const [userChoices, named] = await Promise.all([
    historyUserChoices(ctx),
    filters.userId ? historyUserNamed(ctx, filters.userId) : null,
  ]);
  const userText = named ? named.username : filters.userId;
  const refused = (message: string) => ({
    filters,
    page: 1,
    pageSize: HISTORY_PAGE_SIZE,
    events: [],
    total: 0,
    totalPages: 0,
    userChoices,
    userText,
    error: message,
  });
  if (filters.userId && !named) return refused(t('No user matches “{text}”', { text: filters.userId }));
  // Days typed in the reader's date format; the query takes ISO.
  const typed = readTypedDays(t, preferences.dateFormat, {
    startDate: { label: t('Start Date'), text: filters.startDate },
    endDate: { label: t('End Date'), text: filters.endDate },
  });
  if (typed.error) return refused(typed.error);
  const resolved = { ...filters, userId: named?.value ?? '' };
  try {
    const result = await userActivityHistory(ctx, {
      ...resolved,
      ...typed.days,
      limit: HISTORY_PAGE_SIZE,
      page,
    });
    return { filters: resolved, page, pageSize: HISTORY_PAGE_SIZE, ...result, userChoices, userText, error: null };
  } catch (error) {
    if (!isDomainError(error) || error.kind !== 'invalid') throw error;
    // A bad filter (a hand-edited URL, an end date before the start) shows why, with no rows.
    return refused(refusalLine(error, asReader({ t, preferences })));
  }
}

/** Activity Analytics: the summary of every user, their rows a page at a time. */
async function analyticsTab({ ctx, url, request, auth }: Screen) {
  const { summary, users, computedAt } = await userActivityAnalytics(ctx);
  const totalPages = lastPage(users.length, HISTORY_PAGE_SIZE);
  const page = Math.min(positiveIdParam(url.searchParams.get('page')) ?? 1, totalPages);
  const { t, formats } = requestI18n(request, auth);
  const computedAgo = relativeTime(t, formats, computedAt, Date.now(), true);
  return {
    summary,
    users: users.slice((page - 1) * HISTORY_PAGE_SIZE, page * HISTORY_PAGE_SIZE),
    page,
    totalPages,
    total: users.length,
    computedAt,
    computedAgo,
  };
}

/** The user a form is opened for, when the signed-in user may use that form on them. */
async function openFor(screen: Screen, param: 'edit' | 'permissions') {
  const id = positiveIdParam(screen.url.searchParams.get(param));
  if (!id) return null;
  const target = await getUser(screen.ctx, id);
  return rowAbilities(screen.user, target)[param] ? target : null;
}

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async (screen) => {
    const { ctx, user, url } = screen;
    const tab = tabOf(
      url,
      USER_TABS.map((t) => t.key),
    );
    const roles = roleChoices(user);
    const [companies, users, statistics, analytics, history, editing, permissionsFor] = await Promise.all([
      listVisibleCompanies(ctx),
      tab === 'users' ? usersTab(screen) : null,
      tab === 'statistics' ? userStats(ctx) : null,
      tab === 'analytics' ? analyticsTab(screen) : null,
      tab === 'history' ? historyTab(screen) : null,
      openFor(screen, 'edit'),
      openFor(screen, 'permissions'),
    ]);
    const data: UserManagementData = {
      tab,
      companies,
      roles,
      canCreate: roles.length > 0,
      /** A company-scoped manager creates users of their own company only. */
      allCompanies: user.companyId === null,
      creating: url.searchParams.get('new') === '1' && roles.length > 0,
      editing,
      permissionsFor: permissionsFor
        ? { user: permissionsFor, baseline: [...ROLE_BASELINE[permissionsFor.role]] }
        : null,
      users,
      statistics,
      analytics,
      history,
    };
    return json(data);
  });

/** Success: the list with a toast in the reader's language. */
function succeeded(screen: Screen, message: string) {
  const { t } = requestI18n(screen.request, screen.auth);
  return succeed(screen, { type: 'success', title: t('Success'), description: t(message) });
}

const intents = {
  create: intent({
    allow: allow.to('users', 'create'),
    schema: CreateUserFormSchema,
    hideFields: ['password'],
    failed: USER_MESSAGES.createFailed,
    run: async (value, screen) => {
      await createUser(screen.ctx, value);
      return succeeded(screen, USER_MESSAGES.created);
    },
  }),
  update: intent({
    allow: allow.to('users', 'edit'),
    schema: EditUserFormSchema,
    failed: USER_MESSAGES.updateFailed,
    run: async (value, screen, form) => {
      await updateUser(screen.ctx, formRowId(form), value);
      return succeeded(screen, USER_MESSAGES.updated);
    },
  }),
  permissions: intent({
    allow: allow.to('users', 'edit'),
    failed: USER_MESSAGES.permissionsFailed,
    run: async (_value, screen, form) => {
      const id = formRowId(form);
      // Flags the role already grants are shown checked and locked; they are not posted.
      const baseline = new Set(ROLE_BASELINE[(await getUser(screen.ctx, id)).role]);
      await updateUserPermissions(
        screen.ctx,
        id,
        permissionsFromForm(
          form,
          PERMISSION_FLAGS.filter((flag) => !baseline.has(flag)),
        ),
      );
      return succeeded(screen, USER_MESSAGES.permissions);
    },
  }),
  'temporary-password': intent({
    allow: allow.to('users', 'edit'),
    failed: USER_MESSAGES.temporaryFailed,
    run: async (_value, screen, form) => {
      const id = formRowId(form);
      // Refused before asking: a confirmation of what cannot be done helps nobody.
      const target = await loadTarget(screen.ctx, id);
      assertMayManage(screen.ctx, 'temporaryPassword', target);
      const { t } = requestI18n(screen.request, screen.auth);
      const confirm = confirmationStep(form, id, confirmTemporaryPasswordMessage(target.username, t), {
        action: 'temporary-password',
        title: t(USER_CONFIRM_TITLES['temporary-password']),
      });
      if (confirm) return confirm;
      const { user, temporaryPassword } = await issueTemporaryPassword(screen.ctx, id);
      // Shown once, in this answer only (never in the URL or a cookie). The hydration data
      // carries it base64-encoded, so the page holds it in plain text once: the input.
      const secret = Buffer.from(temporaryPassword, 'utf8').toString('base64');
      return json(
        {
          intent: 'temporary-password',
          temporary: { id: user.id, username: user.username, email: user.email, secret },
        },
        { headers: { 'Cache-Control': 'no-store' } },
      );
    },
  }),
  'reset-two-factor': intent({
    allow: allow.owner,
    failed: USER_MESSAGES.twoFactorResetFailed,
    run: async (_value, screen, form) => {
      const id = formRowId(form);
      const target = await loadTarget(screen.ctx, id);
      const { t } = requestI18n(screen.request, screen.auth);
      const confirm = confirmationStep(form, id, confirmResetTwoFactorMessage(target.username, t), {
        action: 'reset-two-factor',
        title: t(USER_CONFIRM_TITLES['reset-two-factor']),
      });
      if (confirm) return confirm;
      await resetTwoFactor(screen.ctx, id);
      return succeeded(screen, USER_MESSAGES.twoFactorReset);
    },
  }),
  deactivate: intent({
    allow: allow.to('users', 'edit'),
    failed: USER_MESSAGES.deactivateFailed,
    run: async (_value, screen, form) => {
      const id = formRowId(form);
      const target = await loadTarget(screen.ctx, id);
      assertMayManage(screen.ctx, 'deactivate', target);
      const { t } = requestI18n(screen.request, screen.auth);
      const confirm = confirmationStep(form, id, confirmDeactivateUserMessage(target.username, t), {
        action: 'deactivate',
        title: t(USER_CONFIRM_TITLES.deactivate),
      });
      if (confirm) return confirm;
      await setUserActive(screen.ctx, id, false);
      return succeeded(screen, USER_MESSAGES.deactivated);
    },
  }),
  activate: intent({
    allow: allow.to('users', 'edit'),
    failed: USER_MESSAGES.reactivateFailed,
    run: async (_value, screen, form) => {
      const id = formRowId(form);
      await setUserActive(screen.ctx, id, true);
      return succeeded(screen, USER_MESSAGES.reactivated);
    },
  }),
  delete: intent({
    allow: allow.to('users', 'delete'),
    failed: USER_MESSAGES.deleteFailed,
    run: async (_value, screen, form) => {
      const id = formRowId(form);
      const target = await getUser(screen.ctx, id);
      const { t } = requestI18n(screen.request, screen.auth);
      const confirm = confirmationStep(form, id, confirmDeleteUserMessage(target.username, t));
      if (confirm) return confirm;
      await deleteUser(screen.ctx, id);
      return succeeded(screen, USER_MESSAGES.deleted);
    },
  }),
};

export const access = screenAccess(intents, { companyScoped: true });

export const action = (args: ActionFunctionArgs) => screenAction(args, intents, { i18n: requestI18n });
