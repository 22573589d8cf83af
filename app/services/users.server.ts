// Users as the rest of the app sees them (never with the password hash), and managing them.
import { sql } from 'kysely';
import { z } from 'zod';
import { canManageUser, effectiveFlags, PERMISSION_FLAGS, ROLES, type Role, type UserManagementAction } from '../lib/permissions.ts';
import { writeRecord } from './audit.server.ts';
import { actorUserId, inTransaction, type AuthUser, type Db, type ServiceContext } from './context.ts';
import { conflict, fieldErrorsFromZod, forbidden, invalid, notFound, DomainError } from './errors.ts';
import { generateTemporaryPassword, hashPassword, MIN_PASSWORD_LENGTH } from './passwords.server.ts';
import { endSessions } from './sessions.server.ts';

export const PUBLIC_USER_COLUMNS = [
  'id', 'username', 'email', 'role', 'companyId', 'fullName', 'position', 'phoneNumber',
  'isActive', 'isTemporaryPassword', 'passwordChangeRequired', 'lastLoginAt', 'createdAt',
  ...PERMISSION_FLAGS,
] as const;

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

export const CreateUserSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(255),
  email: z.string({ error: 'Must be a valid email address' }).trim().toLowerCase().pipe(z.email('Must be a valid email address')),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(256, 'Password is too long')
    .optional(),
  role: z.enum(ROLES, { error: `Role must be one of: ${ROLES.join(', ')}` }).default('viewer'),
  // 'all' or empty means every company (spec 3 §5).
  companyId: z.union([z.number().int().positive(), z.literal('all'), z.literal(''), z.null()]).optional()
    .transform((v) => (typeof v === 'number' ? v : null)),
  fullName: z.string().trim().max(255).nullish().transform((v) => v || null),
});
export type CreateUserInput = z.input<typeof CreateUserSchema>;

/** Authorises a user-management action for a signed-in actor; the system/CLI actor may manage
 * everybody, but the owner protections hold for it as well. */
function assertMayManage(ctx: ServiceContext, action: UserManagementAction, target: AuthUser | null, newRole?: Role) {
  if (target && (action === 'deactivate' || action === 'delete') && target.role === 'owner') {
    throw new DomainError('forbidden', OWNER_PROTECTED);
  }
  if (ctx.actor.kind !== 'user') return;
  if (!canManageUser(ctx.actor.user, action, target, newRole)) throw forbidden();
}

async function loadTarget(ctx: ServiceContext, id: number): Promise<AuthUser> {
  const user = await findUserById(ctx.db, id);
  // A user outside a company-scoped actor's company answers 404, not 403.
  if (!user || (ctx.actor.kind === 'user' && ctx.actor.user.companyId !== null && ctx.actor.user.companyId !== user.companyId)) throw notFound('User not found');
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
  return inTransaction(ctx.db, async (trx) => {
    if (value.companyId !== null) {
      const company = await trx.selectFrom('companies').select('id').where('id', '=', value.companyId).executeTakeFirst();
      if (!company) throw invalid([{ field: 'companyId', message: 'Company not found' }]);
    }
    const taken = await trx.selectFrom('users').select(['email', 'username'])
      .where((eb) => eb.or([eb(sql`lower(email)`, '=', value.email), eb('username', '=', value.username)]))
      .executeTakeFirst();
    if (taken) throw conflict(taken.email.toLowerCase() === value.email ? 'A user with this email already exists' : 'A user with this username already exists');
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
        isTemporaryPassword: !value.password,
        createdBy: actorUserId(ctx.actor),
      },
    }, { reason: temporaryPassword ? 'User created with a temporary password' : 'User created' });
    const user = (await findUserById(trx, row.id))!;
    return { user, temporaryPassword };
  });
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
  return inTransaction(ctx.db, async (trx) => {
    await endSessions(trx, { userId }, 'deleted');
    await writeRecord({ ...ctx, db: trx }, 'users', { action: 'delete', id: userId }, { reason: 'User deleted' });
    return target;
  });
}
