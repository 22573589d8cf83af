// Managing users (User Management, /api/users, the CLI): lists and statistics, create, edit,
// permissions, temporary passwords, deactivate/reactivate and delete. Each write is one
// transaction with its audit entry (writeRecord); password data never enters the audit. Who may
// do what is decided in user-policy.server.ts.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { containsText, dialectOf } from '../../../db/dialect.ts';
import type { Database } from '../../../db/types.ts';
import { createUserSettingsRow } from '../../../db/user-settings-rows.ts';
import type { PermissionFlag, Role } from '../../platform/lib/permissions.ts';
import { MAX_ID } from '../../platform/lib/query.ts';
import { nameKey } from '../../platform/lib/names.ts';
import {
  CreateUserSchema,
  PermissionsSchema,
  UpdateUserSchema,
  UserListQuerySchema,
  type UserListQuery,
  type UserSortKey,
} from './schemas.ts';
import { writeRecord } from '../../platform/audit.server.ts';
import {
  actingUser,
  actorCompanyScope,
  actorUserId,
  inTransaction,
  requirePermission,
  type AuthUser,
  type Db,
  type ServiceContext,
} from '../../platform/context.ts';
import { DomainError, fieldErrorsFromZod, forbidden, invalid, mapConstraintErrors } from '../../platform/errors.ts';
import { generateTemporaryPassword, hashPassword } from '../auth/index.server.ts';
import { endSessions, PUBLIC_USER_COLUMNS } from '../../platform/session/sessions.server.ts';
import {
  assertMayGrantFlags,
  assertMayGrantRole,
  assertMayManage,
  CANNOT_CHANGE_OWN_ROLE,
  loadTarget,
} from './user-policy.server.ts';
import { findUserById, listedUsers, toListedUser, usersWithCompany, type ListedUser } from './user-queries.server.ts';
import { temporaryPasswordIssued, userCreated, userDeactivated } from '../notifications/index.server.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { REASONS } from '../../platform/audit-reasons.ts';

export const EMAIL_TAKEN = msg('A user with this email already exists');
export const USERNAME_TAKEN = msg('A user with this username already exists');

function parse<T>(
  schema: {
    safeParse(
      input: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  input: unknown,
): T {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------
// Reading

type UserListEb = ExpressionBuilder<Database & { u: Database['users']; c: Database['companies'] }, 'u' | 'c'>;

function userListConditions(
  ctx: ServiceContext,
  query: Pick<UserListQuery, 'isActive' | 'role' | 'company' | 'search'>,
  eb: UserListEb,
): Expression<SqlBool> {
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
    const dialect = dialectOf(ctx.db);
    const search = query.search;
    where.push(
      eb.or(['u.username', 'u.email', 'u.fullName'].map((column) => containsText(dialect, sql.ref(column), search))),
    );
  }
  return eb.and(where);
}

export interface UserListFilter {
  role?: Role;
  companyId?: number | null;
  /** true: only inactive users; false/undefined: only active ones (as the screen's default). */
  inactive?: boolean;
}

export type UserListRow = AuthUser & { companyName: string | null };

/** Every user matching the filter, in id order (`finhub users list`). */
export async function listUsers(ctx: ServiceContext, filter: UserListFilter = {}): Promise<UserListRow[]> {
  requirePermission(ctx, 'users');
  const query = {
    isActive: !filter.inactive,
    role: filter.role,
    company: filter.companyId != null ? String(filter.companyId) : undefined,
  };
  return usersWithCompany(ctx.db)
    .select(PUBLIC_USER_COLUMNS.map((c) => `u.${c}` as const))
    .select('c.name as companyName')
    .where((eb) => userListConditions(ctx, query, eb))
    .orderBy('u.id')
    .execute();
}

const SORT_COLUMNS: Record<UserSortKey, string> = {
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
};

/**
 * One page of users (GET /api/users, the Users tab), paged and sorted in SQL, with the
 * company's name. A company-scoped manager sees only their company's users.
 */
export async function listUsersPage(
  ctx: ServiceContext,
  rawQuery: unknown,
): Promise<{ users: ListedUser[]; total: number; totalPages: number; page: number; limit: number }> {
  requirePermission(ctx, 'users');
  const query = parse(UserListQuerySchema, rawQuery);
  const where = (eb: UserListEb) => userListConditions(ctx, query, eb);
  const counted = await usersWithCompany(ctx.db)
    .where(where)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const rows = await listedUsers(ctx.db)
    .where(where)
    .orderBy(sql.ref(SORT_COLUMNS[query.sortBy]), (ob) =>
      (query.sortOrder === 'asc' ? ob.asc() : ob.desc()).nullsLast(),
    )
    .orderBy('u.id', query.sortOrder)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return {
    users: rows.map(toListedUser),
    total,
    totalPages: Math.ceil(total / query.limit),
    page: query.page,
    limit: query.limit,
  };
}

/** One user (oneself, or a user a manager may see); never the password hash. */
export async function getUser(ctx: ServiceContext, userId: number): Promise<ListedUser> {
  if (actingUser(ctx)?.id !== userId) requirePermission(ctx, 'users');
  const target = await loadTarget(ctx, userId);
  return toListedUser(await listedUsers(ctx.db).where('u.id', '=', target.id).executeTakeFirstOrThrow());
}

// ---------------------------------------------------------------------------------------------
// Checks inside the write's transaction

/** Runs a write, turning a unique violation the checks could not see (two requests at once) into a 409. */
function constraintSafe<T>(fn: () => Promise<T>): Promise<T> {
  return mapConstraintErrors(fn, {
    unique: (error) => {
      const { message = '', constraint = '' } = error as { message?: string; constraint?: string };
      return takenError(/email/i.test(`${constraint} ${message}`) ? 'email' : 'username');
    },
    foreignKey: msg('This user is still referenced by other records'),
  });
}

function takenError(field: 'email' | 'username'): DomainError {
  const message = field === 'email' ? EMAIL_TAKEN : USERNAME_TAKEN;
  return new DomainError('conflict', message, { errors: [{ field, message }] });
}

/**
 * 409 when another user already has this e-mail address or username, compared by nameKey
 * (case-insensitive after NFKC, app/platform/lib/names.ts); an e-mail clash is named first. Runs in the
 * write's transaction.
 */
async function assertUnique(db: Db, values: { email?: string; username?: string }, exceptId?: number): Promise<void> {
  if (values.email === undefined && values.username === undefined) return;
  let q = db.selectFrom('users').select(['email', 'username']);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  const rows = await q.execute();
  const email = values.email === undefined ? undefined : nameKey(values.email);
  const username = values.username === undefined ? undefined : nameKey(values.username);
  if (email !== undefined && rows.some((r) => nameKey(r.email) === email)) throw takenError('email');
  if (username !== undefined && rows.some((r) => nameKey(r.username) === username)) throw takenError('username');
}

async function assertCompanyExists(db: Db, companyId: number | null | undefined): Promise<void> {
  if (companyId === null || companyId === undefined) return;
  const company = await db.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
  if (!company) throw invalid([{ field: 'companyId', message: msg('Company not found') }]);
}

const changedValues = (target: Record<string, unknown>, values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([key, value]) => value !== undefined && target[key] !== value));

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * Creates a user with the given password, or, asked for with temporaryPassword: true, a
 * generated one (returned once, to be shown once) that the user must change at first sign-in.
 */
export async function createUser(
  ctx: ServiceContext,
  input: unknown,
): Promise<{ user: AuthUser; temporaryPassword?: string }> {
  const value = parse(CreateUserSchema, input);
  assertMayManage(ctx, 'create', null, value.role);
  const scope = actorCompanyScope(ctx);
  if (scope !== null && value.companyId !== scope) throw forbidden();
  // The schema let through exactly one of the two.
  const temporaryPassword = value.temporaryPassword ? generateTemporaryPassword() : undefined;
  const passwordHash = await hashPassword(temporaryPassword ?? value.password!);
  const created = await constraintSafe(() =>
    inTransaction(ctx.db, async (trx) => {
      await assertCompanyExists(trx, value.companyId);
      await assertUnique(trx, { email: value.email, username: value.username });
      const row = await writeRecord(
        { ...ctx, db: trx },
        'users',
        {
          action: 'create',
          values: {
            username: value.username,
            email: value.email,
            passwordHash,
            role: value.role,
            companyId: value.companyId,
            fullName: value.fullName,
            isActive: true,
            isTemporaryPassword: temporaryPassword !== undefined || value.isTemporaryPassword,
            createdBy: actorUserId(ctx.actor),
          },
        },
        { reason: temporaryPassword ? 'User created with a temporary password' : 'User created' },
      );
      await createUserSettingsRow(trx, row.id);
      const user = (await findUserById(trx, row.id))!;
      return { user, temporaryPassword };
    }),
  );
  await userCreated(ctx, created.user);
  return created;
}

/** Edits a user within the owner protections; a no-op edit writes nothing. */
export async function updateUser(ctx: ServiceContext, userId: number, input: unknown): Promise<ListedUser> {
  requirePermission(ctx, 'users');
  // The target is read, checked and compared under a row lock in the write's transaction: a
  // concurrent edit waits, and neither decides on (nor audits against) a stale row.
  return constraintSafe(() =>
    inTransaction(ctx.db, async (trx) => {
      const tx = { ...ctx, db: trx };
      const target = await lockTarget(tx, userId);
      const { password: _ignored, ...value } = parse(UpdateUserSchema, input);
      assertMayManage(tx, 'edit', target, value.role);
      const changes = changedValues(target, value);
      const actor = actingUser(ctx);
      if (actor) {
        if (actor.id === target.id && ('role' in changes || 'companyId' in changes))
          throw forbidden(CANNOT_CHANGE_OWN_ROLE);
        if ('role' in changes) assertMayGrantRole(tx, changes.role as Role);
        // A company-scoped manager cannot move users out of (or widen them beyond) their company.
        if (actorCompanyScope(tx) !== null && 'companyId' in changes) throw forbidden();
      }
      if (Object.keys(changes).length === 0) return getUser(tx, userId);
      if ('companyId' in changes) await assertCompanyExists(trx, changes.companyId as number | null);
      await assertUnique(
        trx,
        { email: changes.email as string | undefined, username: changes.username as string | undefined },
        userId,
      );
      await writeRecord(
        tx,
        'users',
        { action: 'update', id: userId, values: changes },
        { reason: REASONS.userUpdated },
      );
      return getUser(tx, userId);
    }),
  );
}

/** loadTarget under a row lock (PostgreSQL; SQLite transactions begin immediate). */
async function lockTarget(tx: ServiceContext, userId: number): Promise<AuthUser> {
  if (dialectOf(tx.db) === 'postgres' && userId > 0 && userId <= MAX_ID) {
    await tx.db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }
  return loadTarget(tx, userId);
}

/**
 * Sets a user's permission flags. Nobody changes their own, and a manager who is not an owner
 * cannot grant a flag they do not hold themselves.
 */
export async function updateUserPermissions(ctx: ServiceContext, userId: number, input: unknown): Promise<ListedUser> {
  requirePermission(ctx, 'users');
  return inTransaction(ctx.db, async (trx) => {
    const tx = { ...ctx, db: trx };
    const target = await lockTarget(tx, userId);
    const flags = parse(PermissionsSchema, input);
    assertMayManage(tx, 'permissions', target);
    const changes = changedValues(target, flags) as Partial<Record<PermissionFlag, boolean>>;
    assertMayGrantFlags(tx, changes);
    if (Object.keys(changes).length === 0) return getUser(tx, userId);
    await writeRecord(
      tx,
      'users',
      { action: 'update', id: userId, values: changes },
      { reason: REASONS.permissionsUpdated },
    );
    return getUser(tx, userId);
  });
}

/**
 * Issues a temporary password: the user must change it at next sign-in, and every
 * session of theirs ends now. The password is returned once and stored only as a hash.
 */
export async function issueTemporaryPassword(
  ctx: ServiceContext,
  userId: number,
): Promise<{ user: AuthUser; temporaryPassword: string; endedSessions: number }> {
  const target = await loadTarget(ctx, userId);
  assertMayManage(ctx, 'temporaryPassword', target);
  const temporaryPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(temporaryPassword);
  const issued = await inTransaction(ctx.db, async (trx) => {
    await writeRecord(
      { ...ctx, db: trx },
      'users',
      {
        action: 'update',
        id: userId,
        values: { passwordHash, isTemporaryPassword: true, passwordChangedAt: new Date().toISOString() },
      },
      { reason: REASONS.temporaryPassword },
    );
    const endedSessions = await endSessions(trx, { userId }, 'temporary_password');
    return { user: (await findUserById(trx, userId))!, temporaryPassword, endedSessions };
  });
  await temporaryPasswordIssued(ctx, issued.user);
  return issued;
}

/** Deactivates (ending the user's sessions) or reactivates a user. */
export async function setUserActive(
  ctx: ServiceContext,
  userId: number,
  active: boolean,
): Promise<{ user: AuthUser; changed: boolean; endedSessions: number }> {
  const target = await loadTarget(ctx, userId);
  // Reactivating is an edit; deactivating has the owner protections.
  assertMayManage(ctx, active ? 'edit' : 'deactivate', target);
  if (target.isActive === active) return { user: target, changed: false, endedSessions: 0 };
  const result = await inTransaction(ctx.db, async (trx) => {
    await writeRecord(
      { ...ctx, db: trx },
      'users',
      { action: 'update', id: userId, values: { isActive: active } },
      {
        reason: active ? 'User reactivated' : 'User deactivated',
      },
    );
    const endedSessions = active ? 0 : await endSessions(trx, { userId }, 'deactivated');
    return { user: (await findUserById(trx, userId))!, changed: true, endedSessions };
  });
  if (!active) await userDeactivated(ctx, result.user, result.endedSessions);
  return result;
}

/** Deletes a user (never an owner): sessions end first, then the row, audited with its data. */
export async function deleteUser(ctx: ServiceContext, userId: number): Promise<AuthUser> {
  const target = await loadTarget(ctx, userId);
  assertMayManage(ctx, 'delete', target);
  return constraintSafe(() =>
    inTransaction(ctx.db, async (trx) => {
      await endSessions(trx, { userId }, 'deleted');
      await writeRecord(
        { ...ctx, db: trx },
        'users',
        { action: 'delete', id: userId },
        { reason: REASONS.userDeleted },
      );
      return target;
    }),
  );
}
