// Reading users as the rest of the app sees them: never with the password hash, except the one
// sign-in lookup. Sign-in, profile and user management read through these; the columns
// themselves (PUBLIC_USER_COLUMNS) are the platform's, as every session reads them.
import { sql } from 'kysely';
import { effectiveFlags } from '../../platform/lib/permissions.ts';
import { nameKey } from '../../platform/lib/names.ts';
import type { AuthUser, Db } from '../../platform/context.ts';
import { PUBLIC_USER_COLUMNS } from '../../platform/session/sessions.server.ts';
import type { ListedUser } from './answers.ts';

/** What User Management lists and the /api/users calls answer. */
const LISTED_USER_COLUMNS = [
  ...PUBLIC_USER_COLUMNS,
  'updatedAt',
  'createdBy',
  'lastActivityAt',
  'loginCount',
  'totalSessionDuration',
  'averageSessionDuration',
] as const;

export type { ListedUser };

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

/** A user by id (digits) or e-mail address (case-insensitive). */
export async function findUserByIdOrEmail(db: Db, key: string): Promise<AuthUser | undefined> {
  const text = key.trim();
  if (/^\d+$/.test(text)) return findUserById(db, Number(text));
  return db
    .selectFrom('users')
    .select(PUBLIC_USER_COLUMNS)
    .where(sql`lower(email)`, '=', normalizeEmail(text))
    .executeTakeFirst();
}

/**
 * The id of a user named by id (digits: a deleted user's id still names them in the audit
 * trail), e-mail address or username (case-insensitive, the closest spelling first).
 */
export async function findUserIdByKey(db: Db, key: string): Promise<number | undefined> {
  const text = key.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const byEmail = await findUserByIdOrEmail(db, text);
  if (byEmail) return byEmail.id;
  const candidates = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where(sql`lower(username)`, '=', text.toLowerCase())
    .execute();
  return (candidates.find((u) => nameKey(u.username) === nameKey(text)) ?? candidates[0])?.id;
}

/** The shape /api/auth/me answers: the stored user, plus the permissions in effect. */
export function toPublicUser(user: AuthUser) {
  return {
    ...user,
    mustChangePassword: user.isTemporaryPassword || user.passwordChangeRequired,
    permissions: effectiveFlags(user),
  };
}

/** Users (`u`) with their company (`c`), to filter and count. */
export function usersWithCompany(db: Db) {
  return db.selectFrom('users as u').leftJoin('companies as c', 'c.id', 'u.companyId');
}

/** The same with the listed columns and the company's name; filter, page and `toListedUser` it. */
export function listedUsers(db: Db) {
  return usersWithCompany(db)
    .select(LISTED_USER_COLUMNS.map((c) => `u.${c}` as const))
    .select('c.name as companyName');
}

type ListedRow = Awaited<ReturnType<ReturnType<typeof listedUsers>['execute']>>[number];

export function toListedUser({ companyName, ...user }: ListedRow): ListedUser {
  return {
    ...user,
    company: user.companyId !== null && companyName !== null ? { id: user.companyId, name: companyName } : null,
  };
}
