// Users as the rest of the app sees them (never with the password hash), and managing them.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/types.ts';
import {
  canManageUser, effectiveFlags, PERMISSION_FLAGS, ROLE_BASELINE, ROLES, type PermissionFlag, type Role, type UserManagementAction,
} from '../lib/permissions.ts';
import { writeRecord } from './audit.server.ts';
import { actorUserId, inTransaction, type AuthUser, type Db, type ServiceContext } from './context.ts';
import { containsPattern } from '../../db/dialect.ts';
import { API_MAX_LIMIT, PAGE_SIZE } from '../lib/paging.ts';
import { blankToUndefined, integerParam } from '../lib/query.ts';
import { fieldErrorsFromZod, forbidden, invalid, mapConstraintErrors, notFound, DomainError } from './errors.ts';
import { generateTemporaryPassword, hashPassword, MIN_PASSWORD_LENGTH } from './passwords.server.ts';
import { endSessions } from './sessions.server.ts';

export const PUBLIC_USER_COLUMNS = [
  'id', 'username', 'email', 'role', 'companyId', 'fullName', 'position', 'phoneNumber',
  'isActive', 'isTemporaryPassword', 'passwordChangeRequired', 'lastLoginAt', 'createdAt',
  ...PERMISSION_FLAGS,
] as const;

/** Ids are 32-bit integers in the database: a larger one cannot exist (and must not reach SQL). */
const MAX_ID = 2_147_483_647;

export async function findUserById(db: Db, id: number): Promise<AuthUser | undefined> {
  return db.selectFrom('users').select(PUBLIC_USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Case-insensitive lookup by e-mail; includes the hash (sign-in only). */
export async function findUserForLogin(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select([...PUBLIC_USER_COLUMNS, 'passwordHash'])
    .where(sql`lower(email)`, '=', normalizeEmail(email))
    .executeTakeFirst();
}

/** The shape /api/auth/me answers: the stored user, plus the permissions in effect. */
export function toPublicUser(user: AuthUser) {
  return {
    ...user,
    mustChangePassword: user.isTemporaryPassword || user.passwordChangeRequired,
    permissions: effectiveFlags(user),
  };
}

// ---------------------------------------------------------------------------------------------
// Managing users (the CLI today; the User Management screens and /api/users later). Each call
// is one transaction with its audit entry (writeRecord); password data never enters the audit.

export const OWNER_PROTECTED = 'Owners cannot be deactivated or deleted';
export const CANNOT_REMOVE_SELF = 'You cannot deactivate or delete your own account';
export const CANNOT_CHANGE_OWN_PERMISSIONS = 'You cannot change your own permissions';
export const CANNOT_RESET_OWN_PASSWORD = 'Use Change Password to change your own password';
export const CANNOT_CHANGE_OWN_ROLE = 'You cannot change your own role or company';
export const CANNOT_GRANT = 'You cannot grant permissions you do not have';
export const EMAIL_TAKEN = 'A user with this email already exists';
export const USERNAME_TAKEN = 'A user with this username already exists';

export const CreateUserSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(255),
  email: z.string({ error: 'Must be a valid email address' }).trim().toLowerCase()
    .max(255, 'Email must be at most 255 characters').pipe(z.email('Must be a valid email address')),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(256, 'Password is too long')
    .optional(),
  role: z.enum(ROLES, { error: `Role must be one of: ${ROLES.join(', ')}` }).default('viewer'),
  // 'all' or empty means every company (spec 3 §5).
  companyId: z.union([z.number().int().positive().max(MAX_ID, 'Company not found'), z.literal('all'), z.literal(''), z.null()], { error: 'Company must be a company id, or empty for all companies' }).optional()
    .transform((v) => (typeof v === 'number' ? v : null)),
  fullName: z.string().trim().max(255).nullish().transform((v) => v || null),
  // With a given password: true makes the user change it at first sign-in. Without a password
  // a temporary one is generated and the flag is always set.
  isTemporaryPassword: z.boolean({ error: 'isTemporaryPassword must be true or false' }).optional().default(false),
});
export type CreateUserInput = z.input<typeof CreateUserSchema>;

/** Authorises a user-management action for a signed-in actor; the system/CLI actor may manage
 * everybody, but the owner protections hold for it as well. */
function assertMayManage(ctx: ServiceContext, action: UserManagementAction, target: AuthUser | null, newRole?: Role) {
  if (target && (action === 'deactivate' || action === 'delete') && target.role === 'owner') {
    throw new DomainError('forbidden', OWNER_PROTECTED);
  }
  if (ctx.actor.kind !== 'user') return;
  if (target && target.id === ctx.actor.user.id && (action === 'deactivate' || action === 'delete')) {
    throw forbidden(CANNOT_REMOVE_SELF);
  }
  if (!canManageUser(ctx.actor.user, action, target, newRole)) throw forbidden();
  // One's own password and permissions are not managed from user management: the password is
  // changed with the current one (change-password), and nobody widens their own permissions.
  if (target && target.id === ctx.actor.user.id && (action === 'temporaryPassword' || action === 'permissions')) {
    throw forbidden(action === 'permissions' ? CANNOT_CHANGE_OWN_PERMISSIONS : CANNOT_RESET_OWN_PASSWORD);
  }
}

async function loadTarget(ctx: ServiceContext, id: number): Promise<AuthUser> {
  const user = id > 0 && id <= MAX_ID ? await findUserById(ctx.db, id) : undefined;
  // A user outside a company-scoped actor's company answers 404, not 403.
  if (!user || (ctx.actor.kind === 'user' && ctx.actor.user.companyId !== null && ctx.actor.user.companyId !== user.companyId)) throw notFound();
  return user;
}

/** A user by id (digits) or e-mail address (case-insensitive). */
export async function findUserByIdOrEmail(db: Db, key: string): Promise<AuthUser | undefined> {
  const text = key.trim();
  if (/^\d+$/.test(text)) return findUserById(db, Number(text));
  return db.selectFrom('users').select(PUBLIC_USER_COLUMNS).where(sql`lower(email)`, '=', normalizeEmail(text)).executeTakeFirst();
}

export interface UserListFilter {
  role?: Role;
  companyId?: number | null;
  /** true: only inactive users; false/undefined: only active ones (as the screen's default). */
  inactive?: boolean;
}

export type UserListRow = AuthUser & { companyName: string | null };

export async function listUsers(ctx: ServiceContext, filter: UserListFilter = {}): Promise<UserListRow[]> {
  if (ctx.actor.kind === 'user' && !canManageUser(ctx.actor.user, 'edit', null)) throw forbidden();
  let q = ctx.db
    .selectFrom('users as u')
    .leftJoin('companies as c', 'c.id', 'u.companyId')
    .select(PUBLIC_USER_COLUMNS.map((c) => `u.${c}` as const))
    .select('c.name as companyName')
    .where('u.isActive', '=', !filter.inactive)
    .orderBy('u.id');
  if (filter.role) q = q.where('u.role', '=', filter.role);
  if (filter.companyId != null) q = q.where('u.companyId', '=', filter.companyId);
  if (ctx.actor.kind === 'user' && ctx.actor.user.companyId !== null) q = q.where('u.companyId', '=', ctx.actor.user.companyId);
  return (await q.execute()) as UserListRow[];
}

/**
 * Creates a user. Without a password a temporary one is generated (returned once, to be shown
 * once) and the user must change it at first sign-in.
 */
export async function createUser(ctx: ServiceContext, input: unknown): Promise<{ user: AuthUser; temporaryPassword?: string }> {
  const parsed = CreateUserSchema.safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const value = parsed.data;
  assertMayManage(ctx, 'create', null, value.role);
  if (ctx.actor.kind === 'user' && ctx.actor.user.companyId !== null && value.companyId !== ctx.actor.user.companyId) throw forbidden();
  const temporaryPassword = value.password ? undefined : generateTemporaryPassword();
  const passwordHash = await hashPassword(value.password ?? temporaryPassword!);
  return constraintSafe(() => inTransaction(ctx.db, async (trx) => {
    if (value.companyId !== null) {
      const company = await trx.selectFrom('companies').select('id').where('id', '=', value.companyId).executeTakeFirst();
      if (!company) throw invalid([{ field: 'companyId', message: 'Company not found' }]);
    }
    const taken = await trx.selectFrom('users').select(['email', 'username'])
      .where((eb) => eb.or([eb(sql`lower(email)`, '=', value.email), eb('username', '=', value.username)]))
      .executeTakeFirst();
    if (taken) throw takenError(taken, value.email);
    const row = await writeRecord({ ...ctx, db: trx }, 'users', {
      action: 'create',
      values: {
        username: value.username,
        email: value.email,
        passwordHash,
        role: value.role,
        companyId: value.companyId,
        fullName: value.fullName,
        isActive: true,
        isTemporaryPassword: !value.password || value.isTemporaryPassword,
        createdBy: actorUserId(ctx.actor),
      },
    }, { reason: temporaryPassword ? 'User created with a temporary password' : 'User created' });
    const user = (await findUserById(trx, row.id))!;
    return { user, temporaryPassword };
  }));
}

/**
 * Issues a temporary password (spec 3 §4): the user must change it at next sign-in, and every
 * session of theirs ends now. The password is returned once and stored only as a hash.
 */
export async function issueTemporaryPassword(ctx: ServiceContext, userId: number): Promise<{ user: AuthUser; temporaryPassword: string; endedSessions: number }> {
  const target = await loadTarget(ctx, userId);
  assertMayManage(ctx, 'temporaryPassword', target);
  const temporaryPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(temporaryPassword);
  return inTransaction(ctx.db, async (trx) => {
    await writeRecord({ ...ctx, db: trx }, 'users', {
      action: 'update',
      id: userId,
      values: { passwordHash, isTemporaryPassword: true, passwordChangedAt: new Date().toISOString() },
    }, { reason: 'Temporary password created' });
    const endedSessions = await endSessions(trx, { userId }, 'temporary_password');
    return { user: (await findUserById(trx, userId))!, temporaryPassword, endedSessions };
  });
}

/** Deactivates (ending the user's sessions) or reactivates a user. */
export async function setUserActive(ctx: ServiceContext, userId: number, active: boolean): Promise<{ user: AuthUser; changed: boolean; endedSessions: number }> {
  const target = await loadTarget(ctx, userId);
  // Reactivating is an edit; deactivating has the owner protections.
  assertMayManage(ctx, active ? 'edit' : 'deactivate', target);
  if (target.isActive === active) return { user: target, changed: false, endedSessions: 0 };
  return inTransaction(ctx.db, async (trx) => {
    await writeRecord({ ...ctx, db: trx }, 'users', { action: 'update', id: userId, values: { isActive: active } }, {
      reason: active ? 'User reactivated' : 'User deactivated',
    });
    const endedSessions = active ? 0 : await endSessions(trx, { userId }, 'deactivated');
    return { user: (await findUserById(trx, userId))!, changed: true, endedSessions };
  });
}

/** Deletes a user (never an owner): sessions end first, then the row, audited with its data. */
export async function deleteUser(ctx: ServiceContext, userId: number): Promise<AuthUser> {
  const target = await loadTarget(ctx, userId);
  assertMayManage(ctx, 'delete', target);
  return constraintSafe(() => inTransaction(ctx.db, async (trx) => {
    await endSessions(trx, { userId }, 'deleted');
    await writeRecord({ ...ctx, db: trx }, 'users', { action: 'delete', id: userId }, { reason: 'User deleted' });
    return target;
  }));
}

// ---------------------------------------------------------------------------------------------
// The /api/users calls (spec 3 §7 "Users"): the paged list, edits, permissions, statistics and
// one's own profile.

/** Throws unless a signed-in actor may manage users (the system/CLI actor always may). */
export function assertUserManager(ctx: ServiceContext): void {
  if (ctx.actor.kind === 'user' && !effectiveFlags(ctx.actor.user).canManageUsers) throw forbidden();
}

/** The company a signed-in actor is limited to (null: every company, or a system actor). */
export function actorCompanyScope(ctx: ServiceContext): number | null {
  return ctx.actor.kind === 'user' ? ctx.actor.user.companyId : null;
}

/**
 * Runs a write, turning a unique or foreign-key violation the checks before it could not see
 * (two requests at once) into a 409 instead of a 500.
 */
function constraintSafe<T>(fn: () => Promise<T>): Promise<T> {
  return mapConstraintErrors(fn, {
    unique: (error) => {
      const { message = '', constraint = '' } = error as { message?: string; constraint?: string };
      const field = /email/i.test(`${constraint} ${message}`) ? 'email' : 'username';
      const text = field === 'email' ? EMAIL_TAKEN : USERNAME_TAKEN;
      return new DomainError('conflict', text, { errors: [{ field, message: text }] });
    },
    foreignKey: 'This user is still referenced by other records',
  });
}

function takenError(taken: { email: string; username: string }, email: string): DomainError {
  const field = taken.email.toLowerCase() === email ? 'email' : 'username';
  const message = field === 'email' ? EMAIL_TAKEN : USERNAME_TAKEN;
  return new DomainError('conflict', message, { errors: [{ field, message }] });
}

/** 409 when another user already has this e-mail address (any case) or username. */
async function assertUnique(db: Db, values: { email?: string; username?: string }, exceptId?: number): Promise<void> {
  if (values.email === undefined && values.username === undefined) return;
  let q = db.selectFrom('users').select(['email', 'username']).where((eb) => {
    const terms: Expression<SqlBool>[] = [];
    if (values.email !== undefined) terms.push(eb(sql`lower(email)`, '=', values.email));
    if (values.username !== undefined) terms.push(eb('username', '=', values.username));
    return eb.or(terms);
  });
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  // An e-mail clash is reported before a username clash.
  const rows = await q.limit(2).execute();
  const clash = rows.find((r) => values.email !== undefined && r.email.toLowerCase() === values.email) ?? rows[0];
  if (clash) throw takenError(clash, values.email ?? '');
}

async function assertCompanyExists(db: Db, companyId: number | null): Promise<void> {
  if (companyId === null) return;
  const company = await db.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
  if (!company) throw invalid([{ field: 'companyId', message: 'Company not found' }]);
}

export const USER_SORT_COLUMNS = {
  id: 'u.id',
  createdAt: 'u.createdAt',
  username: 'u.username',
  email: 'u.email',
  fullName: 'u.fullName',
  role: 'u.role',
  company: 'c.name',
  isActive: 'u.isActive',
  lastLoginAt: 'u.lastLoginAt',
  lastActivityAt: 'u.lastActivityAt',
} as const;
type UserSortKey = keyof typeof USER_SORT_COLUMNS;
const SORT_KEYS = Object.keys(USER_SORT_COLUMNS) as [UserSortKey, ...UserSortKey[]];

/** GET /api/users query: page, limit (10), sortBy (createdAt), sortOrder (desc), search, role, company, isActive. */
export const UserListQuerySchema = z.object({
  page: integerParam('page', 1, 1_000_000).transform((v) => v ?? 1),
  limit: integerParam('limit', 1, API_MAX_LIMIT).transform((v) => v ?? PAGE_SIZE),
  sortBy: z.preprocess(blankToUndefined, z.enum(SORT_KEYS, { error: `sortBy must be one of: ${SORT_KEYS.join(', ')}` }).default('createdAt')),
  sortOrder: z.preprocess(
    (v) => (typeof v === 'string' && v !== '' ? v.toLowerCase() : undefined),
    z.enum(['asc', 'desc'], { error: 'sortOrder must be asc or desc' }).default('desc'),
  ),
  search: z.preprocess(blankToUndefined, z.string().trim().max(200, 'search must be at most 200 characters').optional()),
  // 'all' (or empty) means no filter, as the screen's "All" choices send.
  role: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(ROLES, { error: `role must be one of: ${ROLES.join(', ')}` }).optional(),
  ),
  /** A company id, or its name (case-insensitive); 'all' or empty: every company. */
  company: z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), z.string().trim().max(255).optional()),
  /** true: active users only; false: inactive only; absent or 'all': both. */
  isActive: z.preprocess(
    (v) => (v === '' || v === 'all' || v === undefined ? undefined : String(v).toLowerCase()),
    z.enum(['true', 'false'], { error: 'isActive must be true or false' }).optional(),
  ).transform((v) => (v === undefined ? undefined : v === 'true')),
});
export type UserListQuery = z.output<typeof UserListQuerySchema>;

const LISTED_USER_COLUMNS = [
  ...PUBLIC_USER_COLUMNS, 'updatedAt', 'createdBy', 'lastActivityAt', 'loginCount', 'totalSessionDuration', 'averageSessionDuration',
] as const;

export type ListedUser = AuthUser & {
  updatedAt: string;
  createdBy: number | null;
  lastActivityAt: string | null;
  loginCount: number;
  totalSessionDuration: number;
  averageSessionDuration: number;
  company: { id: number; name: string } | null;
};

type UserListEb = ExpressionBuilder<Database & { u: Database['users']; c: Database['companies'] }, 'u' | 'c'>;

function userListConditions(ctx: ServiceContext, query: UserListQuery, eb: UserListEb): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  const scope = actorCompanyScope(ctx);
  if (scope !== null) where.push(eb('u.companyId', '=', scope));
  if (query.isActive !== undefined) where.push(eb('u.isActive', '=', query.isActive));
  if (query.role) where.push(eb('u.role', '=', query.role));
  if (query.company) {
    if (/^\d{1,9}$/.test(query.company)) where.push(eb('u.companyId', '=', Number(query.company)));
    else where.push(eb(sql`lower(${sql.ref('c.name')})`, '=', query.company.toLowerCase()));
  }
  if (query.search) {
    const pattern = containsPattern(query.search.toLowerCase());
    const like = (column: string) => sql<SqlBool>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`;
    where.push(eb.or([like('u.username'), like('u.email'), like('u.fullName')]));
  }
  return where;
}

/**
 * One page of users for the User Management screen, paged and sorted in SQL, with the
 * company's name. A company-scoped manager sees only their company's users.
 */
export async function listUsersPage(ctx: ServiceContext, rawQuery: unknown): Promise<{ users: ListedUser[]; total: number; totalPages: number; page: number; limit: number }> {
  assertUserManager(ctx);
  const parsed = UserListQuerySchema.safeParse(rawQuery ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const query = parsed.data;
  const base = () => ctx.db.selectFrom('users as u').leftJoin('companies as c', 'c.id', 'u.companyId')
    .where((eb) => eb.and(userListConditions(ctx, query, eb)));
  const counted = await base().select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const column = sql.ref(USER_SORT_COLUMNS[query.sortBy]);
  const rows = await base()
    .select(LISTED_USER_COLUMNS.map((c) => `u.${c}` as const))
    .select(['c.name as companyName'])
    .orderBy(column, (ob) => (query.sortOrder === 'asc' ? ob.asc() : ob.desc()).nullsLast())
    .orderBy('u.id', query.sortOrder)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  const users = rows.map(({ companyName, ...user }) => ({
    ...(user as unknown as Omit<ListedUser, 'company'>),
    company: user.companyId !== null && companyName !== null ? { id: user.companyId, name: companyName } : null,
  }));
  return { users, total, totalPages: Math.ceil(total / query.limit), page: query.page, limit: query.limit };
}

/** One user (oneself, or a user a manager may see); never the password hash. */
export async function getUser(ctx: ServiceContext, userId: number): Promise<ListedUser> {
  if (!(ctx.actor.kind === 'user' && ctx.actor.user.id === userId)) assertUserManager(ctx);
  const target = await loadTarget(ctx, userId);
  const row = await ctx.db.selectFrom('users as u').leftJoin('companies as c', 'c.id', 'u.companyId')
    .select(LISTED_USER_COLUMNS.map((c) => `u.${c}` as const))
    .select(['c.name as companyName'])
    .where('u.id', '=', target.id)
    .executeTakeFirstOrThrow();
  const { companyName, ...user } = row;
  return { ...(user as unknown as Omit<ListedUser, 'company'>), company: user.companyId !== null && companyName !== null ? { id: user.companyId, name: companyName } : null };
}

/** PUT /api/users/{id}: username, email, role, companyId (all optional; password excluded). */
export const UpdateUserSchema = z.object({
  username: CreateUserSchema.shape.username.optional(),
  email: CreateUserSchema.shape.email.optional(),
  role: z.enum(ROLES, { error: `Role must be one of: ${ROLES.join(', ')}` }).optional(),
  companyId: z.union([z.number().int().positive().max(MAX_ID, 'Company not found'), z.literal('all'), z.literal(''), z.null()], { error: 'Company must be a company id, or empty for all companies' })
    .optional()
    .transform((v) => (v === undefined ? undefined : typeof v === 'number' ? v : null)),
  password: z.unknown().optional(),
}).superRefine((value, ctx) => {
  if (value.password !== undefined) ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password cannot be changed here; use Change Password or a temporary password' });
});

const changedValues = (target: Record<string, unknown>, values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([key, value]) => value !== undefined && target[key] !== value));

/** Edits a user within the owner protections; a no-op edit writes nothing. */
export async function updateUser(ctx: ServiceContext, userId: number, input: unknown): Promise<ListedUser> {
  assertUserManager(ctx);
  const target = await loadTarget(ctx, userId);
  const parsed = UpdateUserSchema.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const { password: _ignored, ...value } = parsed.data;
  assertMayManage(ctx, 'edit', target, value.role);
  const changes = changedValues(target, value);
  if (ctx.actor.kind === 'user') {
    const actor = ctx.actor.user;
    if (actor.id === target.id && ('role' in changes || 'companyId' in changes)) throw forbidden(CANNOT_CHANGE_OWN_ROLE);
    // A manager who is not an owner cannot give a role whose baseline exceeds their own rights.
    if ('role' in changes && actor.role !== 'owner') {
      const mine = effectiveFlags(actor);
      if (ROLE_BASELINE[changes.role as Role].some((flag) => !mine[flag])) throw forbidden(CANNOT_GRANT);
    }
    // A company-scoped manager cannot move users out of (or widen them beyond) their company.
    if (actor.companyId !== null && 'companyId' in changes) throw forbidden();
  }
  if (Object.keys(changes).length === 0) return getUser(ctx, userId);
  return constraintSafe(() => inTransaction(ctx.db, async (trx) => {
    if ('companyId' in changes) await assertCompanyExists(trx, changes.companyId as number | null);
    await assertUnique(trx, { email: changes.email as string | undefined, username: changes.username as string | undefined }, userId);
    await writeRecord({ ...ctx, db: trx }, 'users', { action: 'update', id: userId, values: changes }, { reason: 'User updated' });
    return getUser({ ...ctx, db: trx }, userId);
  }));
}

/** PUT /api/users/{id}/permissions: any of the ten flags (booleans). */
export const PermissionsSchema = z.strictObject(
  Object.fromEntries(PERMISSION_FLAGS.map((flag) => [flag, z.boolean({ error: `${flag} must be true or false` }).optional()])) as Record<PermissionFlag, z.ZodOptional<z.ZodBoolean>>,
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown permission: ${issue.keys.join(', ')}` : 'Permissions must be an object of true/false flags') },
);

/**
 * Sets a user's permission flags. Nobody changes their own, and a manager who is not an owner
 * cannot grant a flag they do not hold themselves (no escalation through another account).
 */
export async function updateUserPermissions(ctx: ServiceContext, userId: number, input: unknown): Promise<ListedUser> {
  assertUserManager(ctx);
  const target = await loadTarget(ctx, userId);
  const parsed = PermissionsSchema.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  assertMayManage(ctx, 'permissions', target);
  const changes = changedValues(target, parsed.data) as Partial<Record<PermissionFlag, boolean>>;
  if (ctx.actor.kind === 'user' && ctx.actor.user.role !== 'owner') {
    const mine = effectiveFlags(ctx.actor.user);
    if (Object.entries(changes).some(([flag, on]) => on && !mine[flag as PermissionFlag])) throw forbidden(CANNOT_GRANT);
  }
  if (Object.keys(changes).length === 0) return getUser(ctx, userId);
  return inTransaction(ctx.db, async (trx) => {
    await writeRecord({ ...ctx, db: trx }, 'users', { action: 'update', id: userId, values: changes }, { reason: 'Permissions updated' });
    return getUser({ ...ctx, db: trx }, userId);
  });
}

/** GET /api/users/stats: totals over the users the actor may see. */
export async function userStats(ctx: ServiceContext): Promise<{ totalUsers: number; activeUsers: number; inactiveUsers: number; usersByRole: Record<Role, number> }> {
  assertUserManager(ctx);
  const scope = actorCompanyScope(ctx);
  let q = ctx.db.selectFrom('users').select(['role', 'isActive', (eb) => eb.fn.countAll().as('n')]).groupBy(['role', 'isActive']);
  if (scope !== null) q = q.where('companyId', '=', scope);
  const rows = await q.execute();
  const usersByRole = Object.fromEntries(ROLES.map((role) => [role, 0])) as Record<Role, number>;
  let activeUsers = 0;
  let inactiveUsers = 0;
  for (const row of rows) {
    const n = Number(row.n);
    usersByRole[row.role] += n;
    // SQLite answers the grouped boolean as 0/1 when it comes from an aggregate query.
    if (row.isActive === true || (row.isActive as unknown) === 1) activeUsers += n;
    else inactiveUsers += n;
  }
  return { totalUsers: activeUsers + inactiveUsers, activeUsers, inactiveUsers, usersByRole };
}

export const OWN_PROFILE_ONLY = 'You can only edit your own profile';

/**
 * PATCH /api/users/{id} edits one's own profile only (profile.server.ts does the work):
 * anyone else's id answers 403, whatever the role — administrators use PUT /api/users/{id}.
 */
export function assertOwnAccount(ctx: ServiceContext, userId: number): void {
  if (ctx.actor.kind !== 'user' || ctx.actor.user.id !== userId) throw forbidden(OWN_PROFILE_ONLY);
}
