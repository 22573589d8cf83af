// A user's second factor as stored (docs/security.md): set up (secret sealed, waiting for its
// first code), turned on, checked at sign-in, turned off, its recovery codes renewed, and reset by
// the owner or from the terminal. The codes themselves are two-factor-codes.server.ts's.
import { recordAudit } from '../../platform/audit.server.ts';
import { inTransaction, requireUser, type AuthUser, type Db, type ServiceContext } from '../../platform/context.ts';
import { conflict, fieldErrorsFromZod, forbidden, invalid, notFound } from '../../platform/errors.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { assertCurrentPasswordAllowed, recordCurrentPasswordAttempt } from '../../platform/http/throttle.server.ts';
import { endSessions } from '../../platform/session/sessions.server.ts';
import { verifyPassword } from './passwords.server.ts';
import {
  hashRecoveryCode,
  matchRecoveryCode,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  openTotpSecret,
  otpauthUri,
  qrCodeSvg,
  sealTotpSecret,
} from './two-factor-codes.server.ts';
import { TwoFactorCodeSchema, TwoFactorConfirmSchema } from './schemas.ts';
import { twoFactorReset, twoFactorTurnedOff, twoFactorTurnedOn } from '../notifications/index.server.ts';

/** The keys secrets are sealed under: ENCRYPTION_KEY first, then PREVIOUS_ENCRYPTION_KEY. */
export type SealingKeys = readonly string[];

export const INVALID_TWO_FACTOR_CODE = msg('Invalid code. Check your authenticator app and try again.');
export const TWO_FACTOR_ALREADY_ON = msg('Two-factor authentication is already on.');
export const TWO_FACTOR_NOT_ON = msg('Two-factor authentication is not on.');
const SETUP_MISSING = msg('Start the setup again: no setup is waiting for a code.');

const splitHashes = (stored: string) => (stored ? stored.split(',') : []);

export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
  /** A setup waits for its first code. */
  pending: boolean;
}

function rowOf(db: Db, userId: number) {
  return db.selectFrom('userTwoFactor').selectAll().where('userId', '=', userId).executeTakeFirst();
}

export async function hasTwoFactor(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('userTwoFactor')
    .select('userId')
    .where('userId', '=', userId)
    .where('enabledAt', 'is not', null)
    .executeTakeFirst();
  return !!row;
}

/** Which of these users have two-factor on (one query for a page of users). */
export async function usersWithTwoFactor(db: Db, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('userTwoFactor')
    .select('userId')
    .where('userId', 'in', userIds)
    .where('enabledAt', 'is not', null)
    .execute();
  return new Set(rows.map((r) => r.userId));
}

export async function twoFactorStatus(db: Db, userId: number): Promise<TwoFactorStatus> {
  const row = await rowOf(db, userId);
  return {
    enabled: !!row?.enabledAt,
    enabledAt: row?.enabledAt ?? null,
    recoveryCodesLeft: row?.enabledAt ? splitHashes(row.recoveryHashes).length : 0,
    pending: !!row && !row.enabledAt,
  };
}

export interface TwoFactorSetup {
  /** Base32, for typing into an app by hand. */
  secret: string;
  uri: string;
  qrSvg: string;
}

async function setupOf(user: AuthUser, secret: string): Promise<TwoFactorSetup> {
  const uri = otpauthUri(secret, user.email);
  return { secret, uri, qrSvg: await qrCodeSvg(uri) };
}

/**
 * Starts (or starts again) the setup of one's own second factor: a new secret, sealed, waiting
 * for its first code. Not audited: nothing changes for the sign-in until it is confirmed.
 */
export async function startTwoFactorSetup(ctx: ServiceContext, keys: SealingKeys): Promise<TwoFactorSetup> {
  const user = requireUser(ctx);
  if (await hasTwoFactor(ctx.db, user.id)) throw conflict(TWO_FACTOR_ALREADY_ON);
  const secret = newTotpSecret();
  const sealed = sealTotpSecret(secret, user.id, keys[0]);
  const now = new Date().toISOString();
  await inTransaction(ctx.db, async (trx) => {
    await trx.deleteFrom('userTwoFactor').where('userId', '=', user.id).execute();
    await trx
      .insertInto('userTwoFactor')
      .values({ userId: user.id, secretSealed: sealed.value, keyId: sealed.keyId, createdAt: now, updatedAt: now })
      .execute();
  });
  return setupOf(user, secret);
}

/** The setup waiting for its first code (shown again when the page is reloaded), or null. */
export async function pendingTwoFactorSetup(ctx: ServiceContext, keys: SealingKeys): Promise<TwoFactorSetup | null> {
  const user = requireUser(ctx);
  const row = await rowOf(ctx.db, user.id);
  if (!row || row.enabledAt) return null;
  return setupOf(user, openTotpSecret({ value: row.secretSealed, keyId: row.keyId }, user.id, keys));
}

/**
 * Confirms the setup with a current code: two-factor is on from now, and the ten recovery codes
 * (returned once, stored only as hashes) are made. Audited, and the user is notified.
 */
export async function confirmTwoFactorSetup(
  ctx: ServiceContext,
  keys: SealingKeys,
  input: unknown,
  at = Date.now(),
): Promise<{ recoveryCodes: string[] }> {
  const user = requireUser(ctx);
  const parsed = TwoFactorConfirmSchema.safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const row = await rowOf(ctx.db, user.id);
  if (row?.enabledAt) throw conflict(TWO_FACTOR_ALREADY_ON);
  if (!row) throw conflict(SETUP_MISSING);
  const secret = openTotpSecret({ value: row.secretSealed, keyId: row.keyId }, user.id, keys);
  const step = matchTotp(secret, parsed.data.code, null, at);
  if (step === null) throw invalid([{ field: 'code', message: INVALID_TWO_FACTOR_CODE }]);
  const recoveryCodes = newRecoveryCodes();
  await inTransaction(ctx.db, async (trx) => {
    const now = new Date().toISOString();
    const updated = await trx
      .updateTable('userTwoFactor')
      .set({
        enabledAt: now,
        lastUsedStep: step,
        recoveryHashes: recoveryCodes.map(hashRecoveryCode).join(','),
        updatedAt: now,
      })
      .where('userId', '=', user.id)
      .where('enabledAt', 'is', null)
      .where('secretSealed', '=', row.secretSealed)
      .executeTakeFirst();
    // Another tab confirmed or started again in between.
    if (Number(updated.numUpdatedRows) !== 1) throw conflict(SETUP_MISSING);
    await audit(ctx, trx, user.id, 'Two-factor authentication turned on', { twoFactor: 'on' });
  });
  await twoFactorTurnedOn(ctx, user);
  return { recoveryCodes };
}

/** Which second factor a sign-in or a confirmation used. */
export interface SecondFactorUse {
  method: 'code' | 'recovery';
  recoveryCodesLeft: number;
}

/**
 * Checks a code (authenticator or recovery) of a user whose two-factor is on and uses it up, in
 * the caller's transaction: the step is stored only if it is later than the last one used, and a
 * recovery hash removed only if the list is still the one read, so two requests racing with the
 * same code cannot both pass. Null: wrong, replayed or already used.
 */
export async function useSecondFactor(
  trx: Db,
  userId: number,
  keys: SealingKeys,
  code: string,
  at = Date.now(),
): Promise<SecondFactorUse | null> {
  const row = await rowOf(trx, userId);
  if (!row?.enabledAt) return null;
  const hashes = splitHashes(row.recoveryHashes);
  const now = new Date(at).toISOString();
  if (/^\s*\d{6}\s*$/.test(code)) {
    const secret = openTotpSecret({ value: row.secretSealed, keyId: row.keyId }, userId, keys);
    const step = matchTotp(secret, code, row.lastUsedStep === null ? null : Number(row.lastUsedStep), at);
    if (step === null) return null;
    const updated = await trx
      .updateTable('userTwoFactor')
      .set({ lastUsedStep: step, updatedAt: now })
      .where('userId', '=', userId)
      .where((eb) => eb.or([eb('lastUsedStep', 'is', null), eb('lastUsedStep', '<', step)]))
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1 ? { method: 'code', recoveryCodesLeft: hashes.length } : null;
  }
  const index = matchRecoveryCode(code, hashes);
  if (index === -1) return null;
  const left = hashes.filter((_, i) => i !== index);
  const updated = await trx
    .updateTable('userTwoFactor')
    .set({ recoveryHashes: left.join(','), updatedAt: now })
    .where('userId', '=', userId)
    .where('recoveryHashes', '=', row.recoveryHashes)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? { method: 'recovery', recoveryCodesLeft: left.length } : null;
}

/**
 * The password of one's own account, before turning two-factor off or renewing the recovery
 * codes: wrong passwords count toward the same per-user limit as every other current-password
 * check (so it is checked, and counted, before the writing transaction). Returns the code.
 */
async function checkOwnPassword(ctx: ServiceContext, input: unknown): Promise<{ user: AuthUser; code: string }> {
  const user = requireUser(ctx);
  const parsed = TwoFactorCodeSchema.safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  if (!(await hasTwoFactor(ctx.db, user.id))) throw conflict(TWO_FACTOR_NOT_ON);
  await assertCurrentPasswordAllowed(ctx.db, user.id);
  const stored = await ctx.db
    .selectFrom('users')
    .select('passwordHash')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  const passwordOk = await verifyPassword(stored.passwordHash, parsed.data.currentPassword);
  await recordCurrentPasswordAttempt(ctx.db, user.id, passwordOk);
  if (!passwordOk) throw invalid([{ field: 'currentPassword', message: msg('Current password is incorrect') }]);
  return { user, code: parsed.data.code };
}

async function useOwnCode(trx: Db, user: AuthUser, keys: SealingKeys, code: string): Promise<void> {
  if (!(await useSecondFactor(trx, user.id, keys, code)))
    throw invalid([{ field: 'code', message: INVALID_TWO_FACTOR_CODE }]);
}

/** Turns one's own second factor off (password and a current code), audited and notified. */
export async function turnOffTwoFactor(ctx: ServiceContext, keys: SealingKeys, input: unknown): Promise<void> {
  const { user, code } = await checkOwnPassword(ctx, input);
  await inTransaction(ctx.db, async (trx) => {
    await useOwnCode(trx, user, keys, code);
    await trx.deleteFrom('userTwoFactor').where('userId', '=', user.id).execute();
    await audit(ctx, trx, user.id, 'Two-factor authentication turned off', { twoFactor: 'off' });
  });
  await twoFactorTurnedOff(ctx, user);
}

/** New recovery codes in place of the old ones (password and a current code), returned once. */
export async function renewRecoveryCodes(
  ctx: ServiceContext,
  keys: SealingKeys,
  input: unknown,
): Promise<{ recoveryCodes: string[] }> {
  const { user, code } = await checkOwnPassword(ctx, input);
  const recoveryCodes = newRecoveryCodes();
  await inTransaction(ctx.db, async (trx) => {
    await useOwnCode(trx, user, keys, code);
    await trx
      .updateTable('userTwoFactor')
      .set({ recoveryHashes: recoveryCodes.map(hashRecoveryCode).join(','), updatedAt: new Date().toISOString() })
      .where('userId', '=', user.id)
      .execute();
    await audit(ctx, trx, user.id, 'Two-factor recovery codes renewed', { recoveryCodes: 'renewed' });
  });
  return { recoveryCodes };
}

/**
 * Removes another user's second factor, for someone who lost their phone and their recovery
 * codes: the owner (User Management) or the operator (`finhub users reset-two-factor`). Their
 * sessions end; the reset is audited and the user notified.
 */
export async function resetTwoFactor(ctx: ServiceContext, targetUserId: number): Promise<{ endedSessions: number }> {
  if (ctx.actor.kind === 'user') {
    if (ctx.actor.user.role !== 'owner') throw forbidden(msg('Only the owner can reset two-factor authentication'));
    if (ctx.actor.user.id === targetUserId)
      throw forbidden(msg('Turn off your own two-factor authentication in your profile'));
  }
  const target = await ctx.db
    .selectFrom('users')
    .select(['id', 'username', 'companyId'])
    .where('id', '=', targetUserId)
    .executeTakeFirst();
  if (!target) throw notFound();
  const result = await inTransaction(ctx.db, async (trx) => {
    const deleted = await trx.deleteFrom('userTwoFactor').where('userId', '=', targetUserId).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0)
      throw conflict(msg('Two-factor authentication is not on for {user}.'), { user: target.username });
    await trx.deleteFrom('twoFactorChallenges').where('userId', '=', targetUserId).execute();
    const endedSessions = await endSessions(trx, { userId: targetUserId }, 'two_factor_reset');
    await audit(ctx, trx, targetUserId, 'Two-factor authentication reset', { twoFactor: 'reset', endedSessions });
    return { endedSessions };
  });
  await twoFactorReset(ctx, target);
  return result;
}

async function audit(
  ctx: ServiceContext,
  trx: Db,
  userId: number,
  reason: string,
  newData: Record<string, unknown>,
): Promise<void> {
  await recordAudit({ ...ctx, db: trx }, { tableName: 'users', recordId: userId, action: 'other', newData, reason });
}

/**
 * Seals every stored secret again under the current key (`finhub integrations rotate-key`).
 * Secrets that open under neither key are counted, not touched.
 */
export async function resealTwoFactorSecrets(
  db: Db,
  keys: SealingKeys,
): Promise<{ rotated: number; unusable: number }> {
  const rows = await db.selectFrom('userTwoFactor').select(['userId', 'secretSealed', 'keyId']).execute();
  let rotated = 0;
  let unusable = 0;
  for (const row of rows) {
    let secret: string;
    try {
      secret = openTotpSecret({ value: row.secretSealed, keyId: row.keyId }, row.userId, keys);
    } catch {
      unusable += 1;
      continue;
    }
    const sealed = sealTotpSecret(secret, row.userId, keys[0]);
    if (sealed.keyId === row.keyId) continue;
    await db
      .updateTable('userTwoFactor')
      .set({ secretSealed: sealed.value, keyId: sealed.keyId })
      .where('userId', '=', row.userId)
      .where('secretSealed', '=', row.secretSealed)
      .execute();
    rotated += 1;
  }
  return { rotated, unusable };
}
