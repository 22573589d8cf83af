// Reading users as the rest of the app sees them (never with the password hash).
import { sql } from 'kysely';
import { effectiveFlags, PERMISSION_FLAGS } from '../lib/permissions.ts';
import type { AuthUser, Db } from './context.ts';

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
