// The second step of a sign-in (docs/security.md). A right password of a user with two-factor
// opens a challenge, not a session: a server-side record known by the hash of a random token
// (kept in a short-lived cookie, or returned to an API client), which opens nothing and ends
// after 5 minutes or 5 wrong codes. A right code (or an unused recovery code) ends it and opens
// the session. Wrong codes count against the account and address like wrong passwords, are
// audited, and after a few the user is told that someone knows their password.
import crypto from 'node:crypto';
import type { Runtime } from '../../platform/runtime.ts';
import { recordAudit } from '../../platform/audit.server.ts';
import { inTransaction, systemActor, type Db, type RequestMeta } from '../../platform/context.ts';
import { DomainError, fieldErrorsFromZod, invalid } from '../../platform/errors.ts';
import { msg } from '../../platform/i18n/messages.ts';
import {
  assertLoginAllowed,
  loginDelayMs,
  recordLoginAttempt,
  sleep,
  type Delay,
} from '../../platform/http/throttle.server.ts';
import { hashToken } from '../../platform/session/sessions.server.ts';
import { findUserById } from '../users/index.server.ts';
import { twoFactorFailures } from '../notifications/index.server.ts';
import type { LoginResult } from './auth.server.ts';
import { openSession } from './open-session.server.ts';
import { TwoFactorSignInSchema } from './schemas.ts';
import { INVALID_TWO_FACTOR_CODE, useSecondFactor, type SealingKeys } from './two-factor-state.server.ts';
import { REASONS } from '../../platform/audit-reasons.ts';

export const CHALLENGE_MINUTES = 5;
export const CHALLENGE_MAX_FAILURES = 5;
/** Wrong codes on one challenge after which the user is told (their password is known). */
export const NOTIFY_AFTER_FAILURES = 3;
export const CHALLENGE_ENDED = msg('Your sign-in has expired. Please sign in again.');

export interface TwoFactorChallenge {
  /** The token the second step presents: never stored, only its hash. */
  challenge: string;
  expiresAt: string;
}

/** Where a second step is answered: the database, the request, the process and the sealing keys. */
export interface SignInSite {
  db: Db;
  meta: RequestMeta;
  runtime: Runtime;
  keys: SealingKeys;
}

/** The key wrong codes are counted under, beside the account's wrong passwords. */
const throttleKey = (userId: number) => `#two-factor:${userId}`;

/** Opens a challenge for a user whose password was right (in the sign-in's transaction). */
export async function openChallenge(
  trx: Db,
  userId: number,
  meta: RequestMeta,
  rememberMe: boolean,
  now = new Date(),
): Promise<TwoFactorChallenge> {
  const challenge = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + CHALLENGE_MINUTES * 60_000).toISOString();
  // Ended challenges have nothing left to do: each sign-in sweeps them.
  await trx.deleteFrom('twoFactorChallenges').where('expiresAt', '<=', now.toISOString()).execute();
  await trx
    .insertInto('twoFactorChallenges')
    .values({
      tokenHash: hashToken(challenge),
      userId,
      rememberMe,
      ipAddress: meta.ip ?? null,
      createdAt: now.toISOString(),
      expiresAt,
    })
    .execute();
  return { challenge, expiresAt };
}

/** The live challenge behind a token, or null. */
export async function findChallenge(db: Db, challenge: string | null | undefined, now = new Date()) {
  if (!challenge) return null;
  const row = await db
    .selectFrom('twoFactorChallenges')
    .selectAll()
    .where('tokenHash', '=', hashToken(challenge))
    .executeTakeFirst();
  if (!row || row.expiresAt <= now.toISOString() || row.failures >= CHALLENGE_MAX_FAILURES) return null;
  return row;
}

/**
 * Completes a sign-in with a code or a recovery code: the session opens (ending `previousToken`'s)
 * and the challenge ends. A wrong code counts against the challenge (5 end it), the account and the
 * address (the sign-in throttle), and is audited; a temporary password is changed after this step.
 */
export async function completeTwoFactor(
  site: SignInSite,
  input: { challenge: string | null | undefined; code: unknown },
  previousToken?: string | null,
  options: { delay?: Delay; now?: Date } = {},
): Promise<LoginResult & { recoveryCodesLeft: number; method: 'code' | 'recovery' }> {
  const { db, meta, keys } = site;
  const parsed = TwoFactorSignInSchema.safeParse({ code: input.code });
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const now = options.now ?? new Date();
  const row = await findChallenge(db, input.challenge, now);
  if (!row) throw new DomainError('unauthenticated', CHALLENGE_ENDED);
  const ip = meta.ip ?? 'unknown';
  const key = throttleKey(row.userId);
  await assertLoginAllowed(db, key, ip, now);
  const wait = await loginDelayMs(db, key, now);
  if (wait > 0) await (options.delay ?? sleep)(wait);

  const user = await findUserById(db, row.userId);
  if (!user?.isActive) {
    await db.deleteFrom('twoFactorChallenges').where('id', '=', row.id).execute();
    throw new DomainError('unauthenticated', CHALLENGE_ENDED);
  }

  const signedIn = await inTransaction(db, async (trx) => {
    const use = await useSecondFactor(trx, user.id, keys, parsed.data.code, now.getTime());
    if (!use) return null;
    const ended = await trx.deleteFrom('twoFactorChallenges').where('id', '=', row.id).executeTakeFirst();
    // The same challenge completed by a parallel request: that one signed in.
    if (Number(ended.numDeletedRows) !== 1) throw new DomainError('unauthenticated', CHALLENGE_ENDED);
    await recordLoginAttempt(trx, key, ip, true, now);
    const reason =
      use.method === 'code'
        ? 'Signed in with a two-factor code'
        : `Signed in with a recovery code (${use.recoveryCodesLeft} left)`;
    const opened = await openSession(trx, user, meta, {
      rememberMe: row.rememberMe,
      previousToken,
      reason: row.rememberMe ? `${reason} (remember me)` : reason,
    });
    return { ...opened, ...use };
  });
  if (signedIn) return signedIn;

  const failures = await inTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable('twoFactorChallenges')
      .set((eb) => ({ failures: eb('failures', '+', 1) }))
      .where('id', '=', row.id)
      .returning('failures')
      .executeTakeFirst();
    await recordLoginAttempt(trx, key, ip, false, now);
    await recordAudit(
      { db: trx, actor: systemActor(), meta },
      {
        tableName: 'users',
        recordId: user.id,
        userId: user.id,
        action: 'login_failed',
        newData: { email: user.email },
        reason: REASONS.wrongTwoFactorCode,
      },
    );
    return updated?.failures ?? CHALLENGE_MAX_FAILURES;
  });
  if (failures === NOTIFY_AFTER_FAILURES)
    await twoFactorFailures({ db, actor: systemActor(), meta, runtime: site.runtime }, user, failures);
  if (failures >= CHALLENGE_MAX_FAILURES) {
    await db.deleteFrom('twoFactorChallenges').where('id', '=', row.id).execute();
    throw new DomainError('unauthenticated', `Too many wrong codes. ${CHALLENGE_ENDED}`);
  }
  throw invalid([{ field: 'code', message: INVALID_TWO_FACTOR_CODE }]);
}
