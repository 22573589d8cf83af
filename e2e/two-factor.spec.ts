// Two-factor screens in the browser, with JavaScript on and off, beyond what
// e2e/two-factor-sign-in.spec.ts covers (the setup from the profile, signing in with a code and
// with a recovery code, five wrong codes, turning it off, the owner's reset): where the state is
// shown (profile, Settings › Security), starting the setup again with a new key, new recovery
// codes in place of the old ones, a temporary password changed after the second factor, the
// owner cancelling a reset, and System Settings' Security card.
//
// System Settings' rule ("Require two-factor for owners and admins") is never switched on here:
// it holds for the whole installation, and the e2e server's database is shared by the specs
// running in parallel, which sign in as the owner and as admins (they would be sent to
// /two-factor for as long as it is on). Switching it on, the redirect and the "Continue" after
// the setup are covered over HTTP by app/features/auth/two-factor-sign-in-api.test.ts, on a
// server of its own; here the owner saves the form unchanged (off) and an admin reads it.
import type { Locator, Page } from '@playwright/test';
import { expect, test, type E2EUser } from './support/fixtures.ts';
import { postVia, recordPosts, signInByApi, submitLogin, waitForHydration } from './support/app.ts';
import { confirmDelete, toast } from './support/resources.ts';
import { OWNER_EMAIL, OWNER_PASSWORD } from './support/constants.ts';
import { totpCode } from '../app/features/auth/two-factor-codes.server.ts';

const STEP = 30_000;
const INVALID_CODE = 'Invalid code. Check your authenticator app and try again.';
const CODE_REQUIRED = 'Enter the code from your authenticator app or a recovery code';
const RECOVERY_CODE = /^[a-z2-9]{5}-[a-z2-9]{5}$/;

/** The key the setup shows, without the spaces that group it in fours. */
async function shownSecret(page: Page): Promise<string> {
  const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  return secret;
}

/** The recovery codes the page shows (after a setup or a renewal), checked against the download. */
async function shownRecoveryCodes(page: Page): Promise<string[]> {
  const list = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(list).toHaveCount(10);
  const codes = await list.allInnerTexts();
  for (const code of codes) expect(code).toMatch(RECOVERY_CODE);
  expect(new Set(codes).size).toBe(10);
  const href = await page.getByRole('link', { name: 'Download as text' }).getAttribute('href');
  expect(href).toMatch(/^data:text\/plain/);
  expect(decodeURIComponent(href!)).toContain(codes.join('\n'));
  return codes;
}

/** Sets two-factor up on /two-factor with the current step's code: the key and the recovery codes. */
async function setUp(page: Page, js: boolean): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto('/two-factor');
  await waitForHydration(page, js);
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const secret = await shownSecret(page);
  await page.getByLabel('Authentication code').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  const recoveryCodes = await shownRecoveryCodes(page);
  return { secret, recoveryCodes };
}

/** Signed out, from `from`: the password on /login, which leads to the second step. */
async function passwordStep(page: Page, js: boolean, user: E2EUser, from = '/login') {
  await page.context().clearCookies();
  await page.goto(from);
  await waitForHydration(page, js);
  await submitLogin(page, user.email, user.password);
  await expect(page).toHaveURL(/\/login\/two-factor/);
  await waitForHydration(page, js);
}

/** Enters a code on /login/two-factor; a refused one is checked to be answered 400 without JavaScript. */
async function secondStep(page: Page, js: boolean, code: string, refused = false) {
  const verify = page.getByRole('button', { name: 'Verify' });
  await page.getByLabel('Authentication code').fill(code);
  if (refused && !js) expect((await postVia(page, '/login/two-factor', verify)).status()).toBe(400);
  else await verify.click();
}

/**
 * Clicks `button` expecting the form to be refused: checked in the browser with JavaScript when
 * `inBrowser` (nothing posted), otherwise answered 400 by the server.
 */
async function refused(page: Page, js: boolean, path: string, button: Locator, inBrowser = false) {
  if (js && inBrowser) {
    const posts = recordPosts(page);
    await button.click();
    await expect(page.getByText(CODE_REQUIRED)).toBeVisible();
    expect(posts, 'client-side validation sends nothing').toEqual([]);
  } else if (!js) expect((await postVia(page, path, button)).status()).toBe(400);
  else await button.click();
}

// Wrong codes at sign-in count against the browser's address (127.0.0.1) too, whose budget of
// failed sign-ins the whole suite shares: each test forgets its users' afterwards.
const failedUsers: number[] = [];
test.afterEach(async ({ database }) => {
  for (const id of failedUsers.splice(0))
    await database.db.deleteFrom('loginAttempts').where('email', '=', `#two-factor:${id}`).execute();
});

test('the profile and Settings › Security show two-factor off, then on, and lead to /two-factor; starting again gives a new key', async ({
  page,
  js,
  createUser,
}) => {
  const user = await createUser({ role: 'editor' });
  await signInByApi(page, user);

  // Settings › Security: off, with a link to set it up.
  await page.goto('/settings?tab=security');
  await waitForHydration(page, js);
  const securityRow = page.getByText('An extra code at sign-in.').locator('xpath=../..');
  await expect(securityRow).toHaveText(/sign-in\.\s*Off\s*Set up$/);
  await securityRow.getByRole('link', { name: 'Set up', exact: true }).click();
  await expect(page).toHaveURL('/two-factor');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Two-Factor Authentication');
  await expect(page.getByTestId('two-factor-qr')).toHaveCount(0);
  await waitForHydration(page, js);

  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(page.getByTestId('two-factor-qr').locator('svg')).toBeVisible();
  const firstKey = await shownSecret(page);
  // Nothing is on yet: leaving the setup half-done keeps it off everywhere.
  await page.goto('/profile');
  await expect(page.getByTestId('profile-two-factor')).toContainText('Off');
  await page.goto('/two-factor');
  await waitForHydration(page, js);
  expect(await shownSecret(page), 'a reload shows the same pending key').toBe(firstKey);

  // Starting again replaces the key: the first one's codes no longer confirm.
  const firstKeyShown = await page.getByTestId('two-factor-secret').innerText();
  await page.getByRole('button', { name: 'Start again with a new key' }).click();
  await expect(page.getByTestId('two-factor-secret')).not.toHaveText(firstKeyShown);
  await waitForHydration(page, js);
  const secret = await shownSecret(page);
  const code = page.getByLabel('Authentication code');
  const turnOn = page.getByRole('button', { name: 'Turn on two-factor authentication' });
  // An empty code: refused in the browser with JavaScript, by the server without.
  await refused(page, js, '/two-factor', turnOn, true);
  await expect(code).toHaveAccessibleDescription(CODE_REQUIRED);
  await code.fill(totpCode(firstKey));
  await refused(page, js, '/two-factor', turnOn);
  await expect(code).toHaveAccessibleDescription(INVALID_CODE);
  await code.fill(totpCode(secret));
  await turnOn.click();
  await shownRecoveryCodes(page);
  await expect(page.getByTestId('two-factor-status')).toContainText('Recovery codes left: 10');
  // Set up by choice, not because the owner requires it: no "Continue" to the dashboard.
  await expect(page.getByRole('link', { name: 'Continue' })).toHaveCount(0);

  // Both places now say on, and lead to the page that manages it.
  await page.goto('/settings?tab=security');
  await expect(securityRow).toHaveText(/sign-in\.\s*On\s*Manage$/);
  await waitForHydration(page, js);
  await securityRow.getByRole('link', { name: 'Manage', exact: true }).click();
  await expect(page).toHaveURL('/two-factor');
  await expect(page.getByTestId('two-factor-status')).toContainText('Recovery codes left: 10');
  await expect(page.getByTestId('recovery-codes')).toHaveCount(0);

  await page.goto('/profile');
  await waitForHydration(page, js);
  const card = page.getByTestId('profile-two-factor');
  await expect(card).toHaveText('On: signing in needs a code from your authenticator app.');
  await page.getByRole('link', { name: 'Manage two-factor authentication' }).click();
  await expect(page).toHaveURL('/two-factor');
  await expect(page.getByRole('button', { name: 'Make new recovery codes' })).toBeVisible();
});

test('new recovery codes replace the old ones, after the password and a current code', async ({
  page,
  js,
  createUser,
}) => {
  const user = await createUser({ role: 'viewer' });
  failedUsers.push(user.id);
  await signInByApi(page, user);
  const { recoveryCodes: oldCodes } = await setUp(page, js);
  await page.goto('/two-factor');
  await waitForHydration(page, js);

  const password = page.getByLabel('Current Password');
  const code = page.getByLabel('Authentication code');
  const renew = page.getByRole('button', { name: 'Make new recovery codes' });
  await password.fill(user.password);
  await refused(page, js, '/two-factor', renew, true);
  await expect(code).toHaveAccessibleDescription(CODE_REQUIRED);
  await password.fill(user.password);
  await code.fill('000000');
  await refused(page, js, '/two-factor', renew);
  await expect(code).toHaveAccessibleDescription(INVALID_CODE);
  await expect(page.getByTestId('recovery-codes')).toHaveCount(0);

  // An old recovery code counts as the current code (and is used up by it).
  await password.fill(user.password);
  await code.fill(oldCodes[0]);
  await renew.click();
  const newCodes = await shownRecoveryCodes(page);
  expect(newCodes.filter((c) => oldCodes.includes(c))).toEqual([]);
  await expect(page.getByTestId('two-factor-status')).toContainText('Recovery codes left: 10');
  // Shown once (a GET, not the reload of a POST, which would send the form again).
  await page.goto('/two-factor');
  await expect(page.getByTestId('two-factor-status')).toContainText('Recovery codes left: 10');
  await expect(page.getByTestId('recovery-codes')).toHaveCount(0);

  // At sign-in an old code (never used) is refused, a new one opens the session.
  await passwordStep(page, js, user);
  await secondStep(page, js, oldCodes[1], true);
  await expect(page.getByLabel('Authentication code')).toHaveAccessibleDescription(INVALID_CODE);
  await secondStep(page, js, newCodes[3]);
  await expect(page).toHaveURL('/');
  await expect(toast(page)).toContainText('You have 9 recovery codes left.');
  await page.goto('/two-factor');
  await expect(page.getByTestId('two-factor-status')).toContainText('Recovery codes left: 9');
});

test('a temporary password is changed after the second factor, not instead of it', async ({
  page,
  js,
  createUser,
  database,
}) => {
  const user = await createUser({ role: 'editor' });
  await signInByApi(page, user);
  const { secret } = await setUp(page, js);
  // The owner gives the user a temporary password (as User Management's "Set password" does).
  await database.db.updateTable('users').set({ isTemporaryPassword: true }).where('id', '=', user.id).execute();

  // The second step opens only after the password.
  await page.context().clearCookies();
  await page.goto('/login/two-factor');
  await expect(page).toHaveURL('/login');

  await passwordStep(page, js, user, '/budget-planning');
  await expect(page.getByText('Password change required')).toHaveCount(0);
  await secondStep(page, js, totpCode(secret, Date.now() + STEP));
  await expect(page).toHaveURL('/change-password');
  await expect(page.getByRole('status').filter({ hasText: 'Password change required' })).toBeVisible();
  await page.goto('/budget-planning');
  await expect(page).toHaveURL('/change-password');
});

test('the owner may cancel a reset of two-factor in User Management: it stays on', async ({
  page,
  js,
  browser,
  createUser,
  database,
}) => {
  const user = await createUser({ role: 'viewer' });
  const own = await browser.newContext({ javaScriptEnabled: js });
  try {
    const userPage = await own.newPage();
    await signInByApi(userPage, user);
    await setUp(userPage, js);
  } finally {
    await own.close();
  }

  await signInByApi(page, { email: OWNER_EMAIL, password: OWNER_PASSWORD });
  await page.goto(`/user-management?q=${encodeURIComponent(user.email)}`);
  await waitForHydration(page, js);
  const row = page.getByTestId('user-row').filter({ hasText: user.email });
  await expect(row.getByText('2FA', { exact: true })).toBeVisible();
  const name = user.email.split('@')[0];
  await confirmDelete(
    page,
    js,
    row.getByRole('button', { name: `Reset two-factor authentication of ${name}` }),
    `Are you sure you want to reset two-factor authentication for user ${name}? They sign in with their password alone until they set it up again, and all their sessions end at once.`,
    false,
    'confirm-reset-two-factor',
  );
  await expect(toast(page)).toHaveCount(0);
  await page.goto(`/user-management?q=${encodeURIComponent(user.email)}`);
  await expect(row.getByText('2FA', { exact: true })).toBeVisible();
  const stored = await database.db
    .selectFrom('userTwoFactor')
    .select('userId')
    .where('userId', '=', user.id)
    .executeTakeFirst();
  expect(stored, 'the second factor is still there').toBeDefined();
});

test("System Settings › Security: the owner's form saves the rule (left off); an admin only reads it", async ({
  page,
  js,
  browser,
  createUser,
  database,
}) => {
  const rule = async () =>
    Boolean(
      (
        await database.db
          .selectFrom('systemSettings')
          .select('requireTwoFactorForAdmins')
          .where('id', '=', 1)
          .executeTakeFirstOrThrow()
      ).requireTwoFactorForAdmins,
    );
  expect(await rule(), 'the rule is off for the whole suite').toBe(false);

  await signInByApi(page, { email: OWNER_EMAIL, password: OWNER_PASSWORD });
  await page.goto('/system-settings');
  await waitForHydration(page, js);
  const form = page.getByTestId('two-factor-policy');
  const checkbox = form.getByRole('checkbox', { name: 'Require two-factor for owners and admins' });
  await expect(checkbox).toBeVisible();
  await expect(checkbox).toHaveAccessibleDescription(
    'An owner or admin without two-factor authentication is sent to set it up before anything else opens.',
  );
  // Never checked here (see the top of this file): the form is saved as it is.
  await expect(checkbox).not.toBeChecked();
  const save = form.getByRole('button', { name: 'Save' });
  expect((await postVia(page, '/system-settings', save)).status()).toBeLessThan(400);
  await expect(toast(page)).toContainText('Settings saved');
  await expect(toast(page)).toContainText('Two-factor authentication is no longer required for owners and admins.');
  await expect(page).toHaveURL('/system-settings');
  await expect(checkbox).not.toBeChecked();
  expect(await rule()).toBe(false);

  const admin = await createUser({ role: 'admin' });
  const context = await browser.newContext({ javaScriptEnabled: js });
  try {
    const adminPage = await context.newPage();
    await signInByApi(adminPage, admin);
    await adminPage.goto('/system-settings');
    const readOnly = adminPage.getByTestId('two-factor-policy');
    await expect(readOnly).toHaveText(
      'Two-factor authentication for owners and admins: not required. Only the owner can change this.',
    );
    await expect(adminPage.getByRole('checkbox', { name: 'Require two-factor for owners and admins' })).toHaveCount(0);
    await expect(readOnly.getByRole('button')).toHaveCount(0);
  } finally {
    await context.close();
  }
});
