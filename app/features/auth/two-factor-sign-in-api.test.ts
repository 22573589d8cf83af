// The two steps of an API sign-in for a user with two-factor (docs/security.md), and the owner's
// rule as the API applies it, over HTTP on every test dialect.
import { describe, expect, it } from 'vitest';
import { OWNER_PASSWORD, TEST_DIALECTS } from '../../../test/database.ts';
import { TEST_ENCRYPTION_KEY, useTestServer } from '../../../test/server.ts';
import { expectAnswer } from '../../../test/assertions.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';
import { ownerId, systemContext, userContext } from '../../../test/context.ts';
import { totpCode } from './two-factor-codes.server.ts';
import {
  confirmTwoFactorSetup,
  pendingTwoFactorSetup,
  resetTwoFactor,
  startTwoFactorSetup,
} from './two-factor-state.server.ts';
import { setTwoFactorPolicy } from './two-factor-policy.server.ts';
import { LoginStepAnswer, TwoFactorSignedInAnswer } from './answers.ts';

describe.each(TEST_DIALECTS)('two-factor sign-in API on %s', (dialect) => {
  const { db, client } = useTestServer(dialect);

  async function enrolled(role: 'editor' | 'admin' = 'editor') {
    const user = await createTestUser(db(), { role });
    const ctx = await userContext(db(), user.id);
    const { secret } = await startTwoFactorSetup(ctx, [TEST_ENCRYPTION_KEY]);
    const at = Date.now();
    const { recoveryCodes } = await confirmTwoFactorSetup(
      ctx,
      [TEST_ENCRYPTION_KEY],
      { code: totpCode(secret, at - 30_000) },
      at,
    );
    return { user, secret, recoveryCodes };
  }

  it('answers that a second factor is needed, with no session, and finishes with the code', async () => {
    const { user, secret } = await enrolled();
    const c = client();
    const first = await c.post('/api/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(first.status).toBe(200);
    const body = await first.json();
    expectAnswer(LoginStepAnswer, body);
    expect(body).toMatchObject({ success: false, twoFactorRequired: true });
    expect(c.cookies.has('__session')).toBe(false);
    expect(c.cookies.has('__two_factor')).toBe(true);
    // The challenge opens nothing.
    expect((await c.get('/api/auth/me')).status).toBe(401);

    const wrong = await c.post('/api/auth/two-factor', { challenge: body.challenge, code: '000000' });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).errors).toEqual([expect.objectContaining({ field: 'code' })]);

    const done = await c.post('/api/auth/two-factor', { challenge: body.challenge, code: totpCode(secret) });
    expect(done.status).toBe(200);
    const signedIn = await done.json();
    expectAnswer(TwoFactorSignedInAnswer, signedIn);
    expect(signedIn).toMatchObject({ success: true, user: { id: user.id }, recoveryCodesLeft: 10 });
    expect(c.cookies.has('__two_factor')).toBe(false);
    expect((await c.get('/api/auth/me')).status).toBe(200);
    // The challenge ended with the sign-in.
    const again = await client().post('/api/auth/two-factor', { challenge: body.challenge, code: totpCode(secret) });
    expect(again.status).toBe(401);
  });

  it('takes the challenge from the cookie the login set, and a recovery code', async () => {
    const { user, recoveryCodes } = await enrolled();
    const c = client();
    expect((await c.post('/api/auth/login', { email: user.email, password: TEST_PASSWORD })).status).toBe(200);
    const done = await c.post('/api/auth/two-factor', { code: recoveryCodes[0] });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ recoveryCodesLeft: 9 });
    // Without a challenge at all: 401.
    expect((await client().post('/api/auth/two-factor', { code: '123456' })).status).toBe(401);
  });

  it('keeps an owner or admin without two-factor out of /api until they set it up, when the owner says so', async () => {
    const owner = await userContext(db(), await ownerId(db()));
    const admin = await createTestUser(db(), { role: 'admin' });
    const editor = await createTestUser(db(), { role: 'editor' });
    const withIt = await enrolled('admin');
    await setTwoFactorPolicy(owner, { requireForAdmins: true });
    try {
      const a = client();
      await a.login(admin.email, TEST_PASSWORD);
      const refused = await a.get('/api/dashboard');
      expect(refused.status).toBe(403);
      expect((await refused.json()).message).toContain('Two-factor authentication must be set up');
      expect((await a.get('/api/auth/me')).status).toBe(200);

      const e = client();
      await e.login(editor.email, TEST_PASSWORD);
      expect((await e.get('/api/dashboard')).status).toBe(200);

      const w = client();
      const first = await (
        await w.post('/api/auth/login', { email: withIt.user.email, password: TEST_PASSWORD })
      ).json();
      await w.post('/api/auth/two-factor', { challenge: first.challenge, code: totpCode(withIt.secret) });
      expect((await w.get('/api/dashboard')).status).toBe(200);
    } finally {
      await setTwoFactorPolicy(owner, { requireForAdmins: false });
    }
  });

  it('sends an owner or admin without two-factor to /two-factor from every screen, until the setup is done', async () => {
    const owner = await userContext(db(), await ownerId(db()));
    const admin = await createTestUser(db(), { role: 'admin' });
    await setTwoFactorPolicy(owner, { requireForAdmins: true });
    try {
      const a = client();
      await a.login(admin.email, TEST_PASSWORD);
      for (const path of ['/', '/budget-planning', '/profile', '/no-such-page']) {
        const page = await a.get(path);
        expect(page.status, path).toBe(302);
        expect(page.headers.get('Location'), path).toBe('/two-factor');
      }
      const screen = await a.get('/two-factor');
      expect(screen.status).toBe(200);
      expect(await screen.text()).toContain('Two-factor authentication required');

      // The setup, as the page's forms post it without JavaScript.
      expect((await a.postForm('/two-factor', { intent: 'start' })).status).toBe(302);
      const { secret } = (await pendingTwoFactorSetup(await userContext(db(), admin.id), [TEST_ENCRYPTION_KEY]))!;
      const confirmed = await a.postForm('/two-factor', { intent: 'confirm', code: totpCode(secret) });
      expect(confirmed.status).toBe(200);
      const page = await confirmed.text();
      expect(page).toContain('Your recovery codes');
      expect(page).toContain('Continue');
      expect((await a.get('/budget-planning')).status).toBe(200);
    } finally {
      await setTwoFactorPolicy(owner, { requireForAdmins: false });
    }
  });

  it('System Settings: the owner switches the rule on and off with the form; an admin only reads it', async () => {
    const setting = async () =>
      Boolean(
        (await db().selectFrom('systemSettings').select('requireTwoFactorForAdmins').executeTakeFirstOrThrow())
          .requireTwoFactorForAdmins,
      );
    // An owner without two-factor who switches it on is the first one sent to set it up.
    const o = client();
    await o.login('owner@example.com', OWNER_PASSWORD);
    expect(await (await o.get('/system-settings')).text()).toContain('Require two-factor for owners and admins');
    const on = await o.postForm('/system-settings', { intent: 'twoFactorPolicy', requireForAdmins: 'on' });
    expect(on.headers.get('Location')).toBe('/system-settings');
    expect(await setting()).toBe(true);
    expect((await o.get('/system-settings')).headers.get('Location')).toBe('/two-factor');

    // With two-factor set up, the owner opens System Settings again and switches it off.
    const ownerCtx = await userContext(db(), await ownerId(db()));
    const { secret } = await startTwoFactorSetup(ownerCtx, [TEST_ENCRYPTION_KEY]);
    const at = Date.now();
    await confirmTwoFactorSetup(ownerCtx, [TEST_ENCRYPTION_KEY], { code: totpCode(secret, at - 30_000) }, at);
    const signedIn = client();
    const first = await (
      await signedIn.post('/api/auth/login', { email: 'owner@example.com', password: OWNER_PASSWORD })
    ).json();
    await signedIn.post('/api/auth/two-factor', { challenge: first.challenge, code: totpCode(secret) });
    expect((await signedIn.get('/system-settings')).status).toBe(200);
    const off = await signedIn.postForm('/system-settings', { intent: 'twoFactorPolicy' });
    expect(off.headers.get('Location')).toBe('/system-settings');
    expect(await setting()).toBe(false);

    const admin = await createTestUser(db(), { role: 'admin' });
    const a = client();
    await a.login(admin.email, TEST_PASSWORD);
    const page = await (await a.get('/system-settings')).text();
    expect(page).toContain('Only the owner can change this.');
    expect(page).not.toContain('name="requireForAdmins"');
    expect((await a.postForm('/system-settings', { intent: 'twoFactorPolicy', requireForAdmins: 'on' })).status).toBe(
      403,
    );
    expect(await setting()).toBe(false);
    // The owner signs in with a password alone again for whatever runs next.
    await resetTwoFactor(systemContext(db(), 'cli'), await ownerId(db()));
  });
});
