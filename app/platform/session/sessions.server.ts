// Server-side sessions: the cookie holds a random token; the table keeps only its SHA-256.
import crypto from 'node:crypto';
import { runCompiled } from '../../../db/compiled-cache.ts';
import { PERMISSION_FLAGS } from '../lib/permissions.ts';
import { inTransaction, type AuthUser, type Db } from '../context.ts';
import { SETTING_FIELDS, settingsFromRow, type UserSettings } from './user-settings-row.ts';

/** The columns an AuthUser is read from: never the password hash. User queries read the same. */
export const PUBLIC_USER_COLUMNS = [
  'id',
  'username',
  'email',
  'role',
  'companyId',
  'fullName',
  'position',
  'phoneNumber',
  'isActive',
  'isTemporaryPassword',
  'passwordChangeRequired',
  'lastLoginAt',
  'createdAt',
  ...PERMISSION_FLAGS,
] as const;

export const REMEMBER_ME_DAYS = 30;
export const DEFAULT_SESSION_TIMEOUT_MINUTES = 30;
export const DEFAULT_AUTO_LOGOUT_MINUTES = 480;
/** lastSeenAt is refreshed at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export type SessionEndReason =
  | 'logout'
  | 'idle'
  | 'expired'
  | 'rotated'
  | 'deactivated'
  | 'deleted'
  | 'password_changed'
  | 'temporary_password'
  | 'user_inactive'
  | 'restored'
  | 'two_factor_reset';

/** The installation's one row of policy (system_settings). */
export const SYSTEM_SETTINGS_ID = 1;

/** What a session knows of its user's second factor and the installation's rule. */
export interface TwoFactorFacts {
  enabled: boolean;
  /** System Settings: owners and admins must use two-factor. */
  requiredForAdmins: boolean;
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export interface SessionInfo {
  id: number;
  sessionId: string;
  rememberMe: boolean;
  expiresAt: string;
}

async function userTimeouts(db: Db, userId: number) {
  const settings = await db
    .selectFrom('userSettings')
    .select(['sessionTimeout', 'autoLogout'])
    .where('userId', '=', userId)
    .executeTakeFirst();
  return {
    idleMinutes: settings?.sessionTimeout ?? DEFAULT_SESSION_TIMEOUT_MINUTES,
    absoluteMinutes: settings?.autoLogout ?? DEFAULT_AUTO_LOGOUT_MINUTES,
  };
}

export async function createSession(
  db: Db,
  input: { userId: number; ip?: string | null; userAgent?: string | null; rememberMe: boolean },
  now = new Date(),
): Promise<{ token: string; session: SessionInfo }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const { absoluteMinutes } = await userTimeouts(db, input.userId);
  const lifetimeMs = input.rememberMe ? REMEMBER_ME_DAYS * 86_400_000 : absoluteMinutes * 60_000;
  const row = await db
    .insertInto('userSessions')
    .values({
      sessionId: crypto.randomUUID(),
      tokenHash: hashToken(token),
      userId: input.userId,
      ipAddress: input.ip ?? null,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
      loginAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + lifetimeMs).toISOString(),
      rememberMe: input.rememberMe,
      isActive: true,
    })
    .returning(['id', 'sessionId', 'rememberMe', 'expiresAt'])
    .executeTakeFirstOrThrow();
  return { token, session: row };
}

/**
 * The signed-in user behind a cookie token, or null. Ends the session when it has expired,
 * been idle past the user's timeout, or its user is no longer active.
 */
export async function resolveSession(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{
  user: AuthUser;
  session: SessionInfo;
  settings: UserSettings | null;
  twoFactor: TwoFactorFacts;
} | null> {
  // Every request asks this: compiled once (db/compiled-cache.ts). The user's settings row comes
  // along (its timeout is needed here, and every page's shell reads the rest), one statement
  // fewer per page. Its field names are not those of the user's columns.
  const [row] = await runCompiled(db, 'resolveSession', [hashToken(token)], ([tokenHash]) =>
    db
      .selectFrom('userSessions as s')
      .innerJoin('users as u', 'u.id', 's.userId')
      .leftJoin('userSettings as us', 'us.userId', 'u.id')
      .leftJoin('userTwoFactor as tf', 'tf.userId', 'u.id')
      .select(PUBLIC_USER_COLUMNS.map((c) => `u.${c}` as const))
      .select(['s.id as sessionRowId', 's.sessionId', 's.rememberMe', 's.expiresAt', 's.lastSeenAt'])
      .select(SETTING_FIELDS.map((f) => `us.${f}` as const))
      .select(['us.id as settingsId', 'us.createdAt as settingsCreatedAt', 'us.updatedAt as settingsUpdatedAt'])
      .select('tf.enabledAt as twoFactorEnabledAt')
      .select((eb) =>
        eb
          .selectFrom('systemSettings')
          .select('requireTwoFactorForAdmins')
          .where('id', '=', SYSTEM_SETTINGS_ID)
          .as('requireTwoFactorForAdmins'),
      )
      .where('s.tokenHash', '=', tokenHash as string)
      .where('s.isActive', '=', true),
  );
  if (!row) return null;

  const { sessionRowId, sessionId, rememberMe, expiresAt, lastSeenAt, sessionTimeout, settingsId } = row;
  const user: Record<string, unknown> = {};
  for (const column of PUBLIC_USER_COLUMNS) user[column] = row[column];
  const settings =
    settingsId === null
      ? null
      : settingsFromRow({
          ...row,
          id: settingsId,
          userId: row.id,
          createdAt: row.settingsCreatedAt,
          updatedAt: row.settingsUpdatedAt,
        });
  // The user's sessionTimeout setting, in minutes; 0 means never idle out (Settings → Security).
  const idleMinutes = sessionTimeout ?? DEFAULT_SESSION_TIMEOUT_MINUTES;
  const idleMs = idleMinutes > 0 ? idleMinutes * 60_000 : Number.POSITIVE_INFINITY;
  let ended: SessionEndReason | null = null;
  if (!row.isActive) ended = 'user_inactive';
  else if (now.getTime() >= Date.parse(expiresAt)) ended = 'expired';
  // Remember me keeps a session for its absolute lifetime; others also end when idle.
  else if (!rememberMe && now.getTime() - Date.parse(lastSeenAt) >= idleMs) ended = 'idle';
  if (ended) {
    await endSessions(db, { sessionRowId }, ended, now);
    return null;
  }

  if (now.getTime() - Date.parse(lastSeenAt) >= TOUCH_INTERVAL_MS) {
    await db
      .updateTable('userSessions')
      .set({ lastSeenAt: now.toISOString() })
      .where('id', '=', sessionRowId)
      .execute();
    await db.updateTable('users').set({ lastActivityAt: now.toISOString() }).where('id', '=', row.id).execute();
  }
  return {
    user: user as unknown as AuthUser,
    session: { id: sessionRowId, sessionId, rememberMe, expiresAt },
    settings,
    twoFactor: {
      enabled: row.twoFactorEnabledAt !== null,
      // SQLite answers the subquery's boolean as 0/1.
      requiredForAdmins: Boolean(row.requireTwoFactorForAdmins),
    },
  };
}

/**
 * Ends active sessions (one by row id or token, or all of a user's, optionally sparing one)
 * and adds their durations to the user's activity counters.
 */
export async function endSessions(
  db: Db,
  which: { sessionRowId: number } | { token: string } | { userId: number; exceptSessionRowId?: number },
  reason: SessionEndReason,
  now = new Date(),
): Promise<number> {
  return inTransaction(db, async (trx) => {
    let query = trx
      .selectFrom('userSessions')
      .select(['id', 'userId', 'loginAt', 'lastSeenAt'])
      .where('isActive', '=', true);
    if ('sessionRowId' in which) query = query.where('id', '=', which.sessionRowId);
    else if ('token' in which) query = query.where('tokenHash', '=', hashToken(which.token));
    else {
      query = query.where('userId', '=', which.userId);
      if (which.exceptSessionRowId) query = query.where('id', '!=', which.exceptSessionRowId);
    }
    const sessions = await query.execute();
    const addedByUser = new Map<number, number>();
    for (const s of sessions) {
      const end = reason === 'logout' || reason === 'rotated' ? now : new Date(s.lastSeenAt);
      const seconds = Math.max(0, Math.floor((end.getTime() - Date.parse(s.loginAt)) / 1000));
      await trx
        .updateTable('userSessions')
        .set({ isActive: false, logoutAt: now.toISOString(), sessionDuration: seconds, endReason: reason })
        .where('id', '=', s.id)
        .execute();
      addedByUser.set(s.userId, (addedByUser.get(s.userId) ?? 0) + seconds);
    }
    for (const [userId, seconds] of addedByUser) {
      const user = await trx
        .selectFrom('users')
        .select(['totalSessionDuration', 'loginCount'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) continue;
      const total = user.totalSessionDuration + seconds;
      await trx
        .updateTable('users')
        .set({ totalSessionDuration: total, averageSessionDuration: Math.round(total / Math.max(1, user.loginCount)) })
        .where('id', '=', userId)
        .execute();
    }
    return sessions.length;
  });
}
