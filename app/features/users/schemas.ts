// Users as people submit them: one base per field, and the variants the JSON API
// and the User Management forms derive from it. Isomorphic: conform validates the
// forms with these in the browser and on the server, the services validate API bodies with
// them, and the services check everything again. Also the screen's fixed texts and choices.
import { z } from 'zod';
import { hasNoNul, withoutNul } from '../../platform/lib/text.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
import { MAX_PASSWORD, MIN_PASSWORD } from '../auth/index.ts';
import { API_MAX_LIMIT, PAGE_SIZE } from '../../platform/lib/paging.ts';
import { PERMISSION_FLAGS, ROLES, type PermissionFlag } from '../../platform/lib/permissions.ts';
import { blankToUndefined, MAX_ID } from '../../platform/lib/query.ts';
import { dayParam, integerParam } from '../../platform/lib/query-params.ts';

// ---------------------------------------------------------------------------------------------
// The fields, once.

/** A screen shows it translated, with the minimum as a placeholder (userErrorText). */
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD} characters`;
const PASSWORD_REQUIRED = msg('Password is required');
const EMAIL_INVALID = msg('Must be a valid email address');

/** Left out, null or empty: such a field answers "<Label> is required", not its type's complaint. */
const isMissing = (input: unknown) => input === undefined || input === null || input === '';

const userFields = {
  // Stored NFKC-normalised and trimmed (uniqueness compares app/platform/lib/names.ts nameKey).
  username: z
    .string({ error: msg('Username is required') })
    .normalize('NFKC')
    .trim()
    .min(1, msg('Username is required'))
    .max(255, msg('Username must be at most 255 characters'))
    .refine(hasNoNul, msg('Username must not contain NUL characters')),
  email: z
    .string({ error: EMAIL_INVALID })
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .max(255, msg('Email must be at most 255 characters'))
    .pipe(z.email(EMAIL_INVALID)),
  password: z
    .string({ error: (issue) => (isMissing(issue.input) ? PASSWORD_REQUIRED : PASSWORD_TOO_SHORT) })
    .min(1, { message: PASSWORD_REQUIRED, abort: true })
    .min(MIN_PASSWORD, PASSWORD_TOO_SHORT)
    .max(MAX_PASSWORD, msg('Password is too long')),
  fullName: z
    .string()
    .trim()
    .max(255, msg('Full name must be at most 255 characters'))
    .refine(hasNoNul, msg('Full name must not contain NUL characters'))
    .nullish()
    .transform((v) => v || null),
};

/** JSON: a company id; 'all', '' or null mean every company. */
const apiCompanyId = z.union(
  [z.number().int().positive().max(MAX_ID, 'Company not found'), z.literal('all'), z.literal(''), z.null()],
  { error: 'Company must be a company id, or empty for all companies' },
);
const apiRole = z.enum(ROLES, {
  error: (issue) => (isMissing(issue.input) ? 'Role is required' : `Role must be one of: ${ROLES.join(', ')}`),
});

/**
 * Forms: the select's value, 'all' or a company id (never 0, which the service's schema would
 * refuse in words the screen cannot translate).
 */
const formCompanyId = z
  .string()
  .trim()
  .regex(/^(all|[1-9]\d{0,8})$/, msg('Select a company or All Companies'))
  .optional()
  .transform((v) => (v === undefined || v === 'all' ? null : Number(v)));
const formRole = z.enum(ROLES, {
  error: (issue) => (isMissing(issue.input) ? msg('Role is required') : msg('Select a role')),
});

// ---------------------------------------------------------------------------------------------
// The JSON API (POST /api/users, PUT /api/users/{id}, PUT …/permissions).

const TEMPORARY_WITH_PASSWORD = 'Give a password or ask for a temporary one, not both';

/**
 * The Add User form's fields: a password and a role are required. A generated temporary
 * password is the explicit alternative (temporaryPassword: true, and no password).
 * Strict: an unknown field is a 400, never silently dropped.
 */
export const CreateUserSchema = z
  .strictObject({
    username: userFields.username,
    email: userFields.email,
    password: userFields.password
      .optional()
      .describe(`Required unless temporaryPassword is true; ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`),
    temporaryPassword: z
      .boolean({ error: 'temporaryPassword must be true or false' })
      .optional()
      .describe(
        'true, with no password: one is generated, answered once (temporaryPassword) and must be changed at first sign-in',
      ),
    role: apiRole,
    companyId: apiCompanyId.optional().transform((v) => (typeof v === 'number' ? v : null)),
    fullName: userFields.fullName,
    isTemporaryPassword: z
      .boolean({ error: 'isTemporaryPassword must be true or false' })
      .optional()
      .default(false)
      .describe('true: the user must change the given password at first sign-in'),
  })
  .superRefine(
    (value, ctx) => {
      if (value.temporaryPassword === true) {
        if (value.password !== undefined)
          ctx.addIssue({ code: 'custom', path: ['temporaryPassword'], message: TEMPORARY_WITH_PASSWORD });
      } else if (value.password === undefined) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_REQUIRED });
      }
    },
    // Also beside other fields' errors (a missing role), so one answer names every missing field.
    { when: ({ value }) => typeof value === 'object' && value !== null && !Array.isArray(value) },
  );

export const UpdateUserSchema = z
  .strictObject({
    username: userFields.username.optional(),
    email: userFields.email.optional(),
    role: apiRole.optional(),
    companyId: apiCompanyId
      .optional()
      .transform((v) => (v === undefined ? undefined : typeof v === 'number' ? v : null)),
    password: z.unknown().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.password !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: 'Password cannot be changed here; use Change Password or a temporary password',
      });
  });

export const PermissionsSchema = z.strictObject(
  Object.fromEntries(
    PERMISSION_FLAGS.map((flag) => [flag, z.boolean({ error: `${flag} must be true or false` }).optional()]),
  ) as Record<PermissionFlag, z.ZodOptional<z.ZodBoolean>>,
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown permission: ${issue.keys.join(', ')}`
        : 'Permissions must be an object of true/false flags',
  },
);

// ---------------------------------------------------------------------------------------------
// The User Management forms.

export const CreateUserFormSchema = z.object({
  username: userFields.username,
  email: userFields.email,
  password: userFields.password,
  role: formRole,
  companyId: formCompanyId,
  /** Checked: the user must choose a new password at first sign-in. */
  isTemporaryPassword: z
    .boolean()
    .optional()
    .transform((v) => v === true),
});

export const EditUserFormSchema = z.object({
  username: userFields.username,
  email: userFields.email,
  role: formRole,
  companyId: formCompanyId,
});

/** The permission form: a checked box posts 'on'; a box left out of the post is off. */
export function permissionsFromForm(
  form: FormData,
  only: readonly PermissionFlag[] = PERMISSION_FLAGS,
): Partial<Record<PermissionFlag, boolean>> {
  return Object.fromEntries(
    only.map((flag) => [flag, form.get(flag) === 'on' || form.get(flag) === 'true']),
  ) as Partial<Record<PermissionFlag, boolean>>;
}

export const PERMISSION_GROUPS: { title: string; flags: { flag: PermissionFlag; label: string }[] }[] = [
  {
    title: msg('Data Access'),
    flags: [
      { flag: 'canAccessFinancialData', label: msg('Financial Data') },
      { flag: 'canAccessSubscriberData', label: msg('Subscriber Data') },
      { flag: 'canAccessApiIntegrations', label: msg('API Integrations') },
      { flag: 'canAccessAnalytics', label: msg('Analytics') },
      { flag: 'canAccessAuditLogs', label: msg('Audit Logs') },
      { flag: 'canAccessBackups', label: msg('Backups') },
    ],
  },
  {
    title: msg('Actions'),
    flags: [
      { flag: 'canCreate', label: msg('Create') },
      { flag: 'canEdit', label: msg('Edit') },
      { flag: 'canDelete', label: msg('Delete') },
      { flag: 'canManageUsers', label: msg('Manage Users') },
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Lists: GET /api/users and GET /api/users/activity/history (and the screen's tabs over them).

const USER_SORT_KEYS = [
  'id',
  'createdAt',
  'username',
  'email',
  'fullName',
  'role',
  'company',
  'isActive',
  'lastLoginAt',
  'lastActivityAt',
] as const;
export type UserSortKey = (typeof USER_SORT_KEYS)[number];
/** The columns the Users tab sorts by (?sort=). */
export const USER_SORTS = [
  'username',
  'role',
  'company',
  'isActive',
  'lastLoginAt',
] as const satisfies readonly UserSortKey[];

/** GET /api/users query: page, limit (10), sortBy (createdAt), sortOrder (desc), search, role, company, isActive. */
export const UserListQuerySchema = z.object({
  page: integerParam('page', 1, 1_000_000).transform((v) => v ?? 1),
  limit: integerParam('limit', 1, API_MAX_LIMIT).transform((v) => v ?? PAGE_SIZE),
  sortBy: z.preprocess(
    blankToUndefined,
    z.enum(USER_SORT_KEYS, { error: `sortBy must be one of: ${USER_SORT_KEYS.join(', ')}` }).default('createdAt'),
  ),
  sortOrder: z.preprocess(
    (v) => (typeof v === 'string' && v !== '' ? v.toLowerCase() : undefined),
    z.enum(['asc', 'desc'], { error: 'sortOrder must be asc or desc' }).default('desc'),
  ),
  search: z.preprocess(
    (v) => blankToUndefined(typeof v === 'string' ? withoutNul(v) : v),
    z.string().trim().max(200, 'search must be at most 200 characters').optional(),
  ),
  // 'all' (or empty) means no filter, as the screen's "All" choices send.
  role: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(ROLES, { error: `role must be one of: ${ROLES.join(', ')}` }).optional(),
  ),
  /** A company id, or its name (case-insensitive); 'all' or empty: every company. */
  company: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : typeof v === 'string' ? withoutNul(v) : v),
    z.string().trim().max(255).optional(),
  ),
  /** true: active users only; false: inactive only; absent or 'all': both. */
  isActive: z
    .preprocess(
      (v) => (v === '' || v === 'all' || v === undefined ? undefined : String(v).toLowerCase()),
      z.enum(['true', 'false'], { error: 'isActive must be true or false' }).optional(),
    )
    .transform((v) => (v === undefined ? undefined : v === 'true')),
});
export type UserListQuery = z.output<typeof UserListQuerySchema>;

const HISTORY_ACTIONS = ['login', 'login_failed', 'logout', 'create', 'update', 'delete', 'restore', 'other'] as const;
/** The actions the Activity History tab offers as filters. */
export const HISTORY_ACTION_CHOICES = ['login', 'create', 'update', 'delete'] as const;

/** The screen's "All" choices send 'all': no filter. */
const withoutAll = (query: unknown) =>
  query && typeof query === 'object'
    ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === 'all' ? undefined : v]))
    : query;

/** GET /api/users/activity/history: limit (25), offset (or page), userId, startDate, endDate (inclusive days, UTC), action, tableName. */
export const ActivityHistoryQuerySchema = z.preprocess(
  withoutAll,
  z
    .object({
      limit: integerParam('limit', 1, API_MAX_LIMIT),
      offset: integerParam('offset', 0),
      page: integerParam('page', 1, 1_000_000),
      userId: integerParam('userId', 1, MAX_ID),
      startDate: dayParam('startDate'),
      endDate: dayParam('endDate'),
      action: z.preprocess(
        blankToUndefined,
        z.enum(HISTORY_ACTIONS, { error: `action must be one of: ${HISTORY_ACTIONS.join(', ')}` }).optional(),
      ),
      tableName: z.preprocess(
        blankToUndefined,
        z
          .string()
          .regex(/^[a-z_]{1,100}$/, 'tableName must be a table name such as users or budgets')
          .optional(),
      ),
    })
    .superRefine((q, ctx) => {
      if (q.startDate && q.endDate && q.endDate < q.startDate) {
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: msg('endDate must not be before startDate') });
      }
    }),
);

// ---------------------------------------------------------------------------------------------
// The User Management screen: its tabs (?tab=) and its fixed texts.

export const USER_TABS = [
  { key: 'users', label: msg('Users') },
  { key: 'statistics', label: msg('Statistics') },
  { key: 'analytics', label: msg('Activity Analytics') },
  { key: 'history', label: msg('Activity History') },
] as const;
export type UserTab = (typeof USER_TABS)[number]['key'];

export const USER_MESSAGES = {
  created: msg('User created successfully'),
  updated: msg('User updated successfully'),
  permissions: msg('User permissions updated successfully'),
  deactivated: msg('User deactivated successfully'),
  reactivated: msg('User reactivated successfully'),
  deleted: msg('User deleted successfully'),
  createFailed: msg('Failed to create user'),
  updateFailed: msg('Failed to update user'),
  permissionsFailed: msg('Failed to update permissions'),
  deactivateFailed: msg('Failed to deactivate user'),
  reactivateFailed: msg('Failed to reactivate user'),
  temporaryFailed: msg('Failed to create temporary password'),
  deleteFailed: msg('Failed to delete user'),
  temporaryTitle: msg('Temporary Password Created'),
  twoFactorReset: msg('Two-factor authentication reset successfully'),
  twoFactorResetFailed: msg('Failed to reset two-factor authentication'),
} as const;

const CONFIRM = {
  delete: msg('Are you sure you want to delete user {username}? This action cannot be undone.'),
  temporaryPassword: msg(
    'Are you sure you want to create a temporary password for user {username}? Their current password stops working and all their sessions end at once.',
  ),
  deactivate: msg('Are you sure you want to deactivate user {username}? All their sessions end at once.'),
  resetTwoFactor: msg(
    'Are you sure you want to reset two-factor authentication for user {username}? They sign in with their password alone until they set it up again, and all their sessions end at once.',
  ),
};

/** The confirmations in English (the CLI): the message with its username filled in. */
const english: Translate = (message, values) => message.replace('{username}', String(values?.username ?? ''));

/** The screen passes `t`, its reader's language; the CLI asks in English. */
export function confirmDeleteUserMessage(username: string, t: Translate = english): string {
  return t(CONFIRM.delete, { username });
}

/** Asked before a temporary password replaces the user's password (it signs them out everywhere). */
export function confirmTemporaryPasswordMessage(username: string, t: Translate = english): string {
  return t(CONFIRM.temporaryPassword, { username });
}

/** Asked before a deactivation (it signs the user out everywhere). */
export function confirmDeactivateUserMessage(username: string, t: Translate = english): string {
  return t(CONFIRM.deactivate, { username });
}

/** Asked before the owner removes a user's second factor (it signs them out everywhere). */
export function confirmResetTwoFactorMessage(username: string, t: Translate = english): string {
  return t(CONFIRM.resetTwoFactor, { username });
}

/** The headings of those confirmation steps without JavaScript. */
export const USER_CONFIRM_TITLES = {
  'temporary-password': msg('Confirm temporary password'),
  'reset-two-factor': msg('Confirm two-factor reset'),
  deactivate: msg('Confirm deactivation'),
} as const;

/** Scores, levels and activity statistics look at this many days of activity (docs/activity-window.md). */
export const ACTIVITY_WINDOW_DAYS = 30;

export { EXAMINED_ENTRIES } from './activity-limits.ts';
