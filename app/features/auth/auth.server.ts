// Signing in and out, and changing passwords.
import { AdminSetPasswordSchema, ChangePasswordSchema, LoginSchema } from './schemas.ts';
import { canSeeCompany } from '../../platform/lib/permissions.ts';
import { recordAudit, writeRecord } from '../../platform/audit.server.ts';
import {
  actorUserId,
  inTransaction,
  requireUser,
  systemActor,
  type AuthUser,
  type Db,
  type RequestMeta,
  type ServiceContext,
} from '../../platform/context.ts';
import { DomainError, fieldErrorsFromZod, invalid, notFound } from '../../platform/errors.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.server.ts';
import { createSession, endSessions, type SessionInfo } from '../../platform/session/sessions.server.ts';
import {
  assertCurrentPasswordAllowed,
  assertLoginAllowed,
  loginDelayMs,
  recordCurrentPasswordAttempt,
  recordLoginAttempt,
  sleep,
  type Delay,
} from '../../platform/http/throttle.server.ts';
import { findUserById, findUserForLogin, normalizeEmail } from '../users/index.server.ts';
import { assertMayManage } from '../users/index.server.ts';
import { passwordChanged } from '../notifications/index.server.ts';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const ACCOUNT_DEACTIVATED = 'Your account has been deactivated. Please contact your administrator.';

export interface LoginResult {
  user: AuthUser;
  token: string;
  session: SessionInfo;
}

/**
 * Verifies credentials under the throttle (hard limits per account and address and per
 * address; a growing, capped delay per account) and opens a new session (ending `previousToken`'s,
 * so a sign-in always rotates the session id). Failed and successful sign-ins are audited.
 */
export async function login(
  db: Db,
  meta: RequestMeta,
  input: unknown,
  previousToken?: string | null,
  options: { delay?: Delay } = {},
): Promise<LoginResult> {
  const parsed = LoginSchema.safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const email = normalizeEmail(parsed.data.email);
  const ip = meta.ip ?? 'unknown';
  await assertLoginAllowed(db, email, ip);
  // Failures of this account from other addresses slow the answer down instead of locking out.
  const wait = await loginDelayMs(db, email);
  if (wait > 0) await (options.delay ?? sleep)(wait);

  const found = await findUserForLogin(db, email);
  const passwordOk = found
    ? await verifyPassword(found.passwordHash, parsed.data.password)
    : await verifyAgainstDummy(parsed.data.password);
  const system = { actor: systemActor(), meta };

  if (!found || !passwordOk || !found.isActive) {
    await inTransaction(db, async (trx) => {
      await recordLoginAttempt(trx, email, ip, false);
      await recordAudit(
        { ...system, db: trx },
        {
          tableName: 'users',
          recordId: found?.id ?? null,
          userId: found?.id ?? null,
          action: 'login_failed',
          newData: { email },
          reason: !found ? 'Unknown e-mail address' : !passwordOk ? 'Wrong password' : 'Account deactivated',
        },
      );
    });
    throw new DomainError('unauthenticated', found && passwordOk ? ACCOUNT_DEACTIVATED : INVALID_CREDENTIALS);
  }

  const { passwordHash: _hash, ...user } = found;
  return inTransaction(db, async (trx) => {
    if (previousToken) await endSessions(trx, { token: previousToken }, 'rotated');
    const now = new Date().toISOString();
    await recordLoginAttempt(trx, email, ip, true);
    const { token, session } = await createSession(trx, {
      userId: user.id,
      ip: meta.ip,
      userAgent: meta.userAgent,
      rememberMe: parsed.data.rememberMe,
    });
    const counters = await trx
      .selectFrom('users')
      .select(['loginCount', 'totalSessionDuration'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const loginCount = counters.loginCount + 1;
    await trx
      .updateTable('users')
      .set({
        lastLoginAt: now,
        lastActivityAt: now,
        loginCount,
        averageSessionDuration: Math.round(counters.totalSessionDuration / loginCount),
      })
      .where('id', '=', user.id)
      .execute();
    await recordAudit(
      { db: trx, actor: { kind: 'user', user }, meta: { ...meta, sessionId: session.sessionId } },
      {
        tableName: 'users',
        recordId: user.id,
        action: 'login',
        reason: parsed.data.rememberMe ? 'Signed in (remember me)' : 'Signed in',
      },
    );
    return { user: { ...user, lastLoginAt: now }, token, session };
  });
}

/** Ends the signed-in user's session `sessionRowId` (the actor's own), audited. */
export async function logout(ctx: ServiceContext, sessionRowId: number): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    await endSessions(trx, { sessionRowId }, 'logout');
    await recordAudit(
      { ...ctx, db: trx },
      {
        tableName: 'users',
        recordId: actorUserId(ctx.actor),
        action: 'logout',
        reason: 'Signed out',
      },
    );
  });
}

/**
 * Changes a password. For oneself the current password is checked and other sessions end;
 * an administrator (with the owner protections) may set another user's password without it,
 * which ends all of that user's sessions and makes them choose a new one at next sign-in.
 */
export async function changePassword(
  ctx: ServiceContext,
  targetUserId: number,
  input: unknown,
  currentSessionRowId?: number,
): Promise<void> {
  const actor = requireUser(ctx);
  const self = actor.id === targetUserId;
  const target = await findUserById(ctx.db, targetUserId);
  // A user outside the actor's company must not be revealed: 404 before any 403.
  if (!target || (!self && !canSeeCompany(actor, target.companyId))) throw notFound();
  if (!self) assertMayManage(ctx, 'changePassword', target);

  const parsed = (self ? ChangePasswordSchema : AdminSetPasswordSchema).safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const { currentPassword, newPassword } = parsed.data;

  const stored = await ctx.db
    .selectFrom('users')
    .select('passwordHash')
    .where('id', '=', targetUserId)
    .executeTakeFirstOrThrow();
  if (self) {
    // Wrong current passwords are counted per user: a stolen session cannot guess it for ever.
    await assertCurrentPasswordAllowed(ctx.db, targetUserId);
    const currentOk = await verifyPassword(stored.passwordHash, currentPassword!);
    await recordCurrentPasswordAttempt(ctx.db, targetUserId, currentOk);
    if (!currentOk) throw invalid([{ field: 'currentPassword', message: 'Current password is incorrect' }]);
  } else if (await verifyPassword(stored.passwordHash, newPassword)) {
    throw invalid([{ field: 'newPassword', message: 'New password must be different from the current password' }]);
  }

  const passwordHash = await hashPassword(newPassword);
  await inTransaction(ctx.db, async (trx) => {
    await writeRecord(
      { ...ctx, db: trx },
      'users',
      {
        action: 'update',
        id: targetUserId,
        values: {
          passwordHash,
          isTemporaryPassword: false,
          passwordChangeRequired: !self,
          passwordChangedAt: new Date().toISOString(),
        },
      },
      { reason: self ? 'Password changed' : 'Password set by an administrator' },
    );
    await endSessions(
      trx,
      self ? { userId: targetUserId, exceptSessionRowId: currentSessionRowId } : { userId: targetUserId },
      'password_changed',
    );
  });
  await passwordChanged(ctx, target, self);
}
