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
import { msg } from '../../platform/i18n/messages.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.server.ts';
import { endSessions, hashToken, type SessionInfo } from '../../platform/session/sessions.server.ts';
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
import { hasTwoFactor } from './two-factor-state.server.ts';
import { openChallenge, type TwoFactorChallenge } from './two-factor-challenges.server.ts';
import { openSession } from './open-session.server.ts';
import { REASONS } from '../../platform/audit-reasons.ts';

export const INVALID_CREDENTIALS = msg('Invalid email or password');
export const ACCOUNT_DEACTIVATED = msg('Your account has been deactivated. Please contact your administrator.');

export interface LoginResult {
  user: AuthUser;
  token: string;
  session: SessionInfo;
}

/** What a right password leads to: a session, or the second step for users with two-factor. */
export type SignInStep = ({ kind: 'signedIn' } & LoginResult) | ({ kind: 'twoFactor' } & TwoFactorChallenge);

export const TWO_FACTOR_CODE_REQUIRED = 'A two-factor code is required';

/**
 * Verifies credentials under the throttle (hard limits per account and address and per
 * address; a growing, capped delay per account). Without two-factor it opens a new session
 * (ending `previousToken`'s, so a sign-in always rotates the session id); with it, it opens
 * only the short-lived challenge that the second step completes (two-factor-sign-in.server.ts).
 * Failed and successful sign-ins are audited.
 */
export async function signIn(
  db: Db,
  meta: RequestMeta,
  input: unknown,
  previousToken?: string | null,
  options: { delay?: Delay } = {},
): Promise<SignInStep> {
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
    await recordLoginAttempt(trx, email, ip, true);
    if (await hasTwoFactor(trx, user.id)) {
      const challenge = await openChallenge(trx, user.id, meta, parsed.data.rememberMe);
      return { kind: 'twoFactor', ...challenge };
    }
    const opened = await openSession(trx, user, meta, {
      rememberMe: parsed.data.rememberMe,
      previousToken,
      reason: parsed.data.rememberMe ? 'Signed in (remember me)' : 'Signed in',
    });
    return { kind: 'signedIn', ...opened };
  });
}

/**
 * Signs in with a password alone: for callers that cannot take a second step (tests, tools). A
 * user with two-factor is refused here; the sign-in screens and the API use `signIn`.
 */
export async function login(
  db: Db,
  meta: RequestMeta,
  input: unknown,
  previousToken?: string | null,
  options: { delay?: Delay } = {},
): Promise<LoginResult> {
  const step = await signIn(db, meta, input, previousToken, options);
  if (step.kind !== 'signedIn') {
    // Nobody will present this challenge: it goes at once rather than at the next sweep.
    await db.deleteFrom('twoFactorChallenges').where('tokenHash', '=', hashToken(step.challenge)).execute();
    throw new DomainError('unauthenticated', TWO_FACTOR_CODE_REQUIRED);
  }
  return step;
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
        reason: REASONS.signedOut,
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
    if (!currentOk) throw invalid([{ field: 'currentPassword', message: msg('Current password is incorrect') }]);
  } else if (await verifyPassword(stored.passwordHash, newPassword)) {
    throw invalid([{ field: 'newPassword', message: msg('New password must be different from the current password') }]);
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
