// Two-factor sign-in (docs/security.md) on every test dialect: enrolment, the second step with a
// code and with a recovery code, replays, the challenge's limits, throttling, turning it off and
// renewing codes, the owner's rule and the reset, the sealed secret kept out of the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, OWNER_PASSWORD, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { noEngine, ownerId, systemContext, userContext } from '../../../test/context.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';
import { rejection } from '../../../test/assertions.ts';
import type { Db } from '../../platform/context.ts';
import { login, signIn } from './auth.server.ts';
import { totpCode } from './two-factor-codes.server.ts';
import {
  confirmTwoFactorSetup,
  pendingTwoFactorSetup,
  renewRecoveryCodes,
  resealTwoFactorSecrets,
  resetTwoFactor,
  startTwoFactorSetup,
  turnOffTwoFactor,
  twoFactorStatus,
} from './two-factor-state.server.ts';
import { CHALLENGE_MINUTES, completeTwoFactor } from './two-factor-challenges.server.ts';
import { setTwoFactorPolicy, twoFactorPolicy } from './two-factor-policy.server.ts';
import { resolveSession } from '../../platform/session/sessions.server.ts';
import { mustSetUpTwoFactor } from '../../platform/session/session.server.ts';

const KEY = 'b'.repeat(64);
const NEW_KEY = 'c'.repeat(64);
const STEP = 30_000;
const noDelay = async () => {};

describe.each(TEST_DIALECTS)('two-factor sign-in on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let ip = 0;
  // A fresh client address per test so the per-address throttle never joins tests together.
  const meta = () => ({ ip: `203.0.113.${++ip}`, userAgent: 'vitest-agent/1.0' });
  const site = (m = meta(), keys: string[] = [KEY]) => ({ db, meta: m, runtime: noEngine(), keys });

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database?.destroy());

  /** A user with two-factor on: its secret and recovery codes. */
  async function enrolled(role: 'viewer' | 'editor' | 'admin' = 'editor') {
    const user = await createTestUser(db, { role });
    const ctx = await userContext(db, user.id);
    const { secret } = await startTwoFactorSetup(ctx, [KEY]);
    // The code of the previous step, checked at the same instant: the sign-ins of the test use
    // the current step's code and later ones.
    const at = Date.now();
    const { recoveryCodes } = await confirmTwoFactorSetup(ctx, [KEY], { code: totpCode(secret, at - STEP) }, at);
    return { user, ctx, secret, recoveryCodes };
  }

  async function challengeFor(email: string, m = meta()) {
    const step = await signIn(db, m, { email, password: TEST_PASSWORD });
    if (step.kind !== 'twoFactor') throw new Error('expected the second step');
    return step.challenge;
  }

  const sessionsOf = (userId: number) =>
    db.selectFrom('userSessions').select('id').where('userId', '=', userId).execute();
  const auditOf = (userId: number) =>
    db
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'users')
      .where('recordId', '=', userId)
      .orderBy('id')
      .execute();

  it('sets up with a current code of the new secret, then makes ten one-time recovery codes', async () => {
    const user = await createTestUser(db, { role: 'editor' });
    const ctx = await userContext(db, user.id);
    expect(await twoFactorStatus(db, user.id)).toMatchObject({ enabled: false, pending: false });
    const setup = await startTwoFactorSetup(ctx, [KEY]);
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(setup.qrSvg).toMatch(/^<svg/);
    // A reload shows the same setup again, until it is confirmed.
    expect((await pendingTwoFactorSetup(ctx, [KEY]))?.secret).toBe(setup.secret);
    expect(await twoFactorStatus(db, user.id)).toMatchObject({ enabled: false, pending: true });

    const wrong = await rejection(confirmTwoFactorSetup(ctx, [KEY], { code: '000000' }));
    expect(wrong.errors).toEqual([expect.objectContaining({ field: 'code' })]);
    const { recoveryCodes } = await confirmTwoFactorSetup(ctx, [KEY], { code: totpCode(setup.secret) });
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await twoFactorStatus(db, user.id)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // Once on, the secret is never shown again, and a second setup is refused.
    expect(await pendingTwoFactorSetup(ctx, [KEY])).toBeNull();
    expect((await rejection(startTwoFactorSetup(ctx, [KEY]))).status).toBe(409);

    // Neither the secret nor a recovery code is in the audit trail (or anywhere but its row, sealed).
    const trail = JSON.stringify(await db.selectFrom('auditLogs').selectAll().execute());
    expect(trail).not.toContain(setup.secret);
    for (const code of recoveryCodes) expect(trail).not.toContain(code);
    const stored = await db
      .selectFrom('userTwoFactor')
      .selectAll()
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(setup.secret);
    expect((await auditOf(user.id)).map((a) => a.reason)).toContain('Two-factor authentication turned on');
  });

  it('asks for a code after the password: no session until the code, then one that counts as a sign-in', async () => {
    const { user, secret } = await enrolled();
    const m = meta();
    const step = await signIn(db, m, { email: user.email, password: TEST_PASSWORD, rememberMe: true });
    expect(step.kind).toBe('twoFactor');
    expect(await sessionsOf(user.id)).toHaveLength(0);
    // A password alone signs nobody with two-factor in.
    expect((await rejection(login(db, meta(), { email: user.email, password: TEST_PASSWORD }))).status).toBe(401);
    // Its challenge, which nobody can present, is gone with it: only the signIn's remains.
    const waiting = await db.selectFrom('twoFactorChallenges').select('id').where('userId', '=', user.id).execute();
    expect(waiting).toHaveLength(1);

    const challenge = step.kind === 'twoFactor' ? step.challenge : '';
    const done = await completeTwoFactor(site(m), { challenge, code: totpCode(secret) }, null, { delay: noDelay });
    expect(done).toMatchObject({ method: 'code', recoveryCodesLeft: 10, session: { rememberMe: true } });
    expect(await resolveSession(db, done.token)).toMatchObject({ user: { id: user.id } });
    const audit = await auditOf(user.id);
    expect(audit.at(-1)).toMatchObject({ action: 'login', reason: 'Signed in with a two-factor code (remember me)' });
    // The challenge is used up.
    const again = await rejection(completeTwoFactor(site(m), { challenge, code: totpCode(secret) }));
    expect(again.status).toBe(401);
  });

  it('changes a temporary password after the second factor, not instead of it', async () => {
    const { user, secret } = await enrolled();
    await db.updateTable('users').set({ isTemporaryPassword: true }).where('id', '=', user.id).execute();
    const step = await signIn(db, meta(), { email: user.email, password: TEST_PASSWORD });
    expect(step.kind).toBe('twoFactor');
    const challenge = step.kind === 'twoFactor' ? step.challenge : '';
    const done = await completeTwoFactor(site(), { challenge, code: totpCode(secret) });
    expect(done.user.isTemporaryPassword).toBe(true);
    expect((await resolveSession(db, done.token))?.user.isTemporaryPassword).toBe(true);
  });

  it('answers a blank code as missing, without spending one of the five tries', async () => {
    const { user } = await enrolled();
    const challenge = await challengeFor(user.email);
    const blank = await rejection(completeTwoFactor(site(), { challenge, code: '   ' }));
    expect(blank.errors).toEqual([
      { field: 'code', message: 'Enter the code from your authenticator app or a recovery code' },
    ]);
    const row = await db
      .selectFrom('twoFactorChallenges')
      .select('failures')
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.failures).toBe(0);
    expect((await auditOf(user.id)).filter((a) => a.action === 'login_failed')).toEqual([]);
  });

  it('never takes a code twice, nor an earlier one still in the window', async () => {
    const { user, secret } = await enrolled();
    const now = Date.now();
    await completeTwoFactor(site(), { challenge: await challengeFor(user.email), code: totpCode(secret, now) });
    const replay = await rejection(
      completeTwoFactor(site(), { challenge: await challengeFor(user.email), code: totpCode(secret, now) }),
    );
    expect(replay.errors).toEqual([expect.objectContaining({ field: 'code' })]);
    const earlier = await rejection(
      completeTwoFactor(site(), { challenge: await challengeFor(user.email), code: totpCode(secret, now - STEP) }),
    );
    expect(earlier.errors).toEqual([expect.objectContaining({ field: 'code' })]);
    // The next step's code (one step ahead is in the window) still works.
    const next = await completeTwoFactor(site(), {
      challenge: await challengeFor(user.email),
      code: totpCode(secret, now + STEP),
    });
    expect(next.method).toBe('code');
  });

  it('takes each recovery code once, in any case and spacing', async () => {
    const { user, recoveryCodes } = await enrolled();
    const typed = ` ${recoveryCodes[3].toUpperCase().replace('-', ' ')} `;
    const done = await completeTwoFactor(site(), { challenge: await challengeFor(user.email), code: typed });
    expect(done).toMatchObject({ method: 'recovery', recoveryCodesLeft: 9 });
    expect((await auditOf(user.id)).at(-1)?.reason).toBe('Signed in with a recovery code (9 left)');
    const reused = await rejection(
      completeTwoFactor(site(), { challenge: await challengeFor(user.email), code: recoveryCodes[3] }),
    );
    expect(reused.errors).toEqual([expect.objectContaining({ field: 'code' })]);
    expect(await twoFactorStatus(db, user.id)).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it('ends a challenge after five minutes, or after five wrong codes, and tells the user after three', async () => {
    const { user, secret } = await enrolled();
    const expired = await challengeFor(user.email);
    const later = new Date(Date.now() + CHALLENGE_MINUTES * 60_000 + 1000);
    const late = await rejection(
      completeTwoFactor(site(), { challenge: expired, code: totpCode(secret, later.getTime()) }, null, { now: later }),
    );
    expect(late).toMatchObject({ status: 401, message: 'Your sign-in has expired. Please sign in again.' });

    const m = meta();
    const challenge = await challengeFor(user.email, m);
    for (let i = 1; i <= 4; i++) {
      const wrong = await rejection(
        completeTwoFactor(site(m), { challenge, code: '000000' }, null, { delay: noDelay }),
      );
      expect(wrong.status, `wrong code ${i}`).toBe(400);
    }
    const fifth = await rejection(completeTwoFactor(site(m), { challenge, code: '000000' }, null, { delay: noDelay }));
    expect(fifth).toMatchObject({ status: 401, message: expect.stringContaining('Too many wrong codes') });
    // Even the right code does not revive it.
    const right = await rejection(completeTwoFactor(site(m), { challenge, code: totpCode(secret) }));
    expect(right.status).toBe(401);

    const failed = (await auditOf(user.id)).filter((a) => a.action === 'login_failed');
    expect(failed.map((a) => a.reason)).toEqual(Array(5).fill('Wrong two-factor code'));
    const told = await db
      .selectFrom('notifications')
      .select(['title', 'message'])
      .where('targetUserId', '=', user.id)
      .where('title', '=', 'Wrong two-factor codes')
      .execute();
    expect(told).toHaveLength(1);
    expect(told[0].message).toContain('3 wrong two-factor codes');
  });

  it('throttles wrong codes per account and address, without locking the account out elsewhere', async () => {
    const { user, secret } = await enrolled();
    const m = meta();
    // Five wrong codes from one address, over two challenges.
    for (const count of [3, 2]) {
      const challenge = await challengeFor(user.email, m);
      for (let i = 0; i < count; i++)
        await rejection(completeTwoFactor(site(m), { challenge, code: '000000' }, null, { delay: noDelay }));
    }
    const blocked = await rejection(
      completeTwoFactor(site(m), { challenge: await challengeFor(user.email, m), code: totpCode(secret) }),
    );
    expect(blocked.status).toBe(429);
    expect(blocked.retryAfter).toBeGreaterThan(0);
    // Another address signs in (the account's failures only slow it down).
    const elsewhere = meta();
    let slowed = 0;
    const done = await completeTwoFactor(
      site(elsewhere),
      { challenge: await challengeFor(user.email, elsewhere), code: totpCode(secret) },
      null,
      {
        delay: async (ms) => {
          slowed = ms;
        },
      },
    );
    expect(done.method).toBe('code');
    expect(slowed).toBeGreaterThan(0);
  });

  it('turns off and renews recovery codes only with the password and a current code', async () => {
    const { user, ctx, secret, recoveryCodes } = await enrolled();
    const wrongPassword = await rejection(
      renewRecoveryCodes(ctx, [KEY], { currentPassword: 'not-my-password', code: totpCode(secret) }),
    );
    expect(wrongPassword.errors).toEqual([expect.objectContaining({ field: 'currentPassword' })]);
    const wrongCode = await rejection(
      renewRecoveryCodes(ctx, [KEY], { currentPassword: TEST_PASSWORD, code: '000000' }),
    );
    expect(wrongCode.errors).toEqual([expect.objectContaining({ field: 'code' })]);

    const renewed = await renewRecoveryCodes(ctx, [KEY], { currentPassword: TEST_PASSWORD, code: totpCode(secret) });
    expect(renewed.recoveryCodes).toHaveLength(10);
    // The old codes are gone; a new one turns two-factor off.
    const old = await rejection(
      turnOffTwoFactor(ctx, [KEY], { currentPassword: TEST_PASSWORD, code: recoveryCodes[0] }),
    );
    expect(old.errors).toEqual([expect.objectContaining({ field: 'code' })]);
    await turnOffTwoFactor(ctx, [KEY], { currentPassword: TEST_PASSWORD, code: renewed.recoveryCodes[0] });
    expect(await twoFactorStatus(db, user.id)).toMatchObject({ enabled: false, pending: false });
    expect((await signIn(db, meta(), { email: user.email, password: TEST_PASSWORD })).kind).toBe('signedIn');
    expect((await auditOf(user.id)).map((a) => a.reason)).toEqual(
      expect.arrayContaining(['Two-factor recovery codes renewed', 'Two-factor authentication turned off']),
    );
  });

  it('lets the owner and the operator reset a second factor, ending the sessions; nobody else', async () => {
    const { user, secret } = await enrolled('admin');
    const session = await completeTwoFactor(site(), {
      challenge: await challengeFor(user.email),
      code: totpCode(secret),
    });
    const admin = await createTestUser(db, { role: 'admin' });
    const byAdmin = await rejection(resetTwoFactor(await userContext(db, admin.id), user.id));
    expect(byAdmin.status).toBe(403);
    const owner = await userContext(db, await ownerId(db));
    expect((await rejection(resetTwoFactor(owner, await ownerId(db)))).status).toBe(403);

    const { endedSessions } = await resetTwoFactor(owner, user.id);
    expect(endedSessions).toBe(1);
    expect(await resolveSession(db, session.token)).toBeNull();
    expect(await twoFactorStatus(db, user.id)).toMatchObject({ enabled: false });
    expect((await auditOf(user.id)).at(-1)).toMatchObject({
      action: 'other',
      reason: 'Two-factor authentication reset',
    });
    // Nothing left to reset: a conflict, not a silent success.
    expect((await rejection(resetTwoFactor(owner, user.id))).status).toBe(409);

    // The terminal acts as the operator.
    const other = await enrolled();
    await resetTwoFactor(systemContext(db, 'cli'), other.user.id);
    expect(await twoFactorStatus(db, other.user.id)).toMatchObject({ enabled: false });
    const entry = (await auditOf(other.user.id)).at(-1);
    expect(entry).toMatchObject({ reason: 'Two-factor authentication reset', userId: null });
  });

  it('the owner alone may require two-factor of owners and admins, who must then set it up', async () => {
    const owner = await userContext(db, await ownerId(db));
    const admin = await createTestUser(db, { role: 'admin' });
    expect(
      (await rejection(setTwoFactorPolicy(await userContext(db, admin.id), { requireForAdmins: true }))).status,
    ).toBe(403);
    await setTwoFactorPolicy(owner, { requireForAdmins: true });
    try {
      expect(await twoFactorPolicy(db)).toMatchObject({ requireForAdmins: true });
      const facts = async (email: string, password = TEST_PASSWORD) => {
        const { token } = await login(db, meta(), { email, password });
        return (await resolveSession(db, token))!;
      };
      const forAdmin = await facts(admin.email);
      expect(mustSetUpTwoFactor(forAdmin.user, forAdmin.twoFactor)).toBe(true);
      const ownerFacts = await facts('owner@example.com', OWNER_PASSWORD);
      expect(mustSetUpTwoFactor(ownerFacts.user, ownerFacts.twoFactor)).toBe(true);
      const editor = await createTestUser(db, { role: 'editor' });
      const forEditor = await facts(editor.email);
      expect(mustSetUpTwoFactor(forEditor.user, forEditor.twoFactor)).toBe(false);
      // An admin with two-factor is let through.
      const { user, secret } = await enrolled('admin');
      const done = await completeTwoFactor(site(), {
        challenge: await challengeFor(user.email),
        code: totpCode(secret),
      });
      const withIt = (await resolveSession(db, done.token))!;
      expect(mustSetUpTwoFactor(withIt.user, withIt.twoFactor)).toBe(false);
    } finally {
      await setTwoFactorPolicy(owner, { requireForAdmins: false });
    }
    const changes = await db
      .selectFrom('auditLogs')
      .select('reason')
      .where('tableName', '=', 'system_settings')
      .orderBy('id')
      .execute();
    expect(changes.map((c) => c.reason)).toEqual([
      'Two-factor required for owners and admins',
      'Two-factor no longer required for owners and admins',
    ]);
  });

  it('re-seals secrets under a new key, and they still verify', async () => {
    const { user, secret } = await enrolled();
    const result = await resealTwoFactorSecrets(db, [NEW_KEY, KEY]);
    expect(result.rotated).toBeGreaterThanOrEqual(1);
    expect(result.unusable).toBe(0);
    const done = await completeTwoFactor(site(meta(), [NEW_KEY]), {
      challenge: await challengeFor(user.email),
      code: totpCode(secret),
    });
    expect(done.method).toBe('code');
  });
});
