// Two-factor sign-in in the browser, with JavaScript on and off: setting it up from the profile
// (the code computed here from the key the page shows), signing in with a code and with a
// recovery code, turning it off, and the owner's reset in User Management.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { postVia, signIn, signInByApi, submitLogin, waitForHydration } from './support/app.ts';
import { confirmDelete, toast } from './support/resources.ts';
import { totpCode } from '../app/features/auth/two-factor-codes.server.ts';
import { OWNER_EMAIL, OWNER_PASSWORD } from './support/constants.ts';

const STEP = 30_000;
const INVALID_CODE = 'Invalid code. Check your authenticator app and try again.';

/** Sets two-factor up on /two-factor: returns the key read off the page and the recovery codes. */
async function setUp(page: Page, js: boolean): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto('/profile');
  await waitForHydration(page, js);
  await expect(page.getByTestId('profile-two-factor')).toContainText('Off');
  await page.getByRole('link', { name: 'Set up two-factor authentication' }).click();
  await expect(page).toHaveURL('/two-factor');
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg')).toBeVisible();
  const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  const code = page.getByLabel('Authentication code');
  const turnOn = page.getByRole('button', { name: 'Turn on two-factor authentication' });
  await code.fill('000000');
  if (js) await turnOn.click();
  else expect((await postVia(page, '/two-factor', turnOn)).status()).toBe(400);
  await expect(code).toHaveAccessibleDescription(INVALID_CODE);

  // The current step's code (a step boundary passing before the server checks it leaves it in
  // the window); later sign-ins use the next step's, since a step is never taken twice.
  await code.fill(totpCode(secret));
  await turnOn.click();
  const list = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(list).toHaveCount(10);
  const recoveryCodes = await list.allInnerTexts();
  for (const c of recoveryCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  const download = await page.getByRole('link', { name: 'Download as text' }).getAttribute('href');
  expect(decodeURIComponent(download!)).toContain(recoveryCodes.join('\n'));
  await expect(page.getByTestId('two-factor-status')).toContainText('Recovery codes left: 10');
  // Shown once: the page loaded again shows neither the codes nor the key. (A reload would post
  // the form again without JavaScript.)
  await page.goto('/two-factor');
  await expect(page.getByTestId('recovery-codes')).toHaveCount(0);
  await expect(page.getByTestId('two-factor-secret')).toHaveCount(0);
  return { secret, recoveryCodes };
}

/** Signs out (a fresh context's cookies) and enters the password on /login, from `from`. */
async function passwordStep(page: Page, js: boolean, email: string, password: string, from = '/login') {
  await page.context().clearCookies();
  await page.goto(from);
  await waitForHydration(page, js);
  await submitLogin(page, email, password);
  await expect(page).toHaveURL(/\/login\/two-factor/);
  await waitForHydration(page, js);
}

/**
 * Removes the account's wrong codes at the end of a test: they count against the browser's
 * address (127.0.0.1) too, whose budget of failed sign-ins the whole suite shares.
 */
async function forgetFailures(database: { db: any }, userId: number) {
  await database.db.deleteFrom('loginAttempts').where('email', '=', `#two-factor:${userId}`).execute();
}

// What each test leaves to clear, run after it whether it passed or not.
const forget: (() => Promise<void>)[] = [];
test.afterEach(async () => {
  for (const step of forget.splice(0)) await step();
});

async function secondStep(page: Page, js: boolean, code: string, expectStatus?: number) {
  const verify = page.getByRole('button', { name: 'Verify' });
  await page.getByLabel('Authentication code').fill(code);
  if (expectStatus && !js) expect((await postVia(page, '/login/two-factor', verify)).status()).toBe(expectStatus);
  else await verify.click();
}

test('set up from the profile, then sign in with a code and with a recovery code, each once', async ({
  page,
  js,
  createUser,
  database,
}) => {
  const user = await createUser({ role: 'editor' });
  forget.push(async () => forgetFailures(database, user.id));
  await signInByApi(page, user);
  const { secret, recoveryCodes } = await setUp(page, js);
  await page.goto('/profile');
  await expect(page.getByTestId('profile-two-factor')).toContainText('On');

  // Signed out, on the way to a screen: the password, then the code, then that screen.
  await passwordStep(page, js, user.email, user.password, '/budget-planning');
  await secondStep(page, js, '000000', 400);
  await expect(page.getByLabel('Authentication code')).toHaveAccessibleDescription(INVALID_CODE);
  await secondStep(page, js, totpCode(secret, Date.now() + STEP));
  await expect(page).toHaveURL('/budget-planning');
  await expect(toast(page)).toContainText('Welcome back!');

  // A recovery code signs in once.
  await passwordStep(page, js, user.email, user.password);
  await secondStep(page, js, recoveryCodes[0]);
  await expect(page).toHaveURL('/');
  await expect(toast(page)).toContainText('You have 9 recovery codes left.');
  await passwordStep(page, js, user.email, user.password);
  await secondStep(page, js, recoveryCodes[0], 400);
  await expect(page.getByLabel('Authentication code')).toHaveAccessibleDescription(INVALID_CODE);
  // Without the second step nothing opens.
  await page.goto('/budget-planning');
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
});

test('five wrong codes end the sign-in, and this address waits before trying the account again', async ({
  page,
  js,
  createUser,
  database,
}) => {
  const user = await createUser({ role: 'viewer' });
  forget.push(async () => forgetFailures(database, user.id));
  await signInByApi(page, user);
  const { secret } = await setUp(page, js);

  await passwordStep(page, js, user.email, user.password);
  for (let i = 0; i < 4; i++) await secondStep(page, js, '000000', 400);
  await secondStep(page, js, '000000');
  await expect(page).toHaveURL('/login');
  await expect(toast(page)).toContainText('Too many wrong codes. Your sign-in has expired. Please sign in again.');
  // The password still opens a challenge, but this address has had its five tries at the code.
  await passwordStep(page, js, user.email, user.password);
  await secondStep(page, js, totpCode(secret, Date.now() + STEP), 429);
  await expect(page.getByText(/Too many failed login attempts/)).toBeVisible();
});

test('turning two-factor off needs the password and a current code', async ({ page, js, createUser }) => {
  const user = await createUser({ role: 'viewer' });
  await signInByApi(page, user);
  const { recoveryCodes } = await setUp(page, js);

  const turnOff = page.getByRole('button', { name: 'Turn off two-factor authentication' });
  await page.getByLabel('Current Password').fill('Not-My-Password-1');
  await page.getByLabel('Authentication code').fill(recoveryCodes[1]);
  if (js) await turnOff.click();
  else expect((await postVia(page, '/two-factor', turnOff)).status()).toBe(400);
  await expect(page.getByLabel('Current Password')).toHaveAccessibleDescription('Current password is incorrect');
  await page.getByLabel('Current Password').fill(user.password);
  await page.getByLabel('Authentication code').fill(recoveryCodes[1]);
  await turnOff.click();
  await expect(toast(page)).toContainText('Two-factor authentication turned off');
  await expect(page.getByRole('button', { name: 'Set up two-factor authentication' })).toBeVisible();
  // The password alone signs in again.
  await page.context().clearCookies();
  await signIn(page, user);
  await expect(page).toHaveURL('/');
});

test('the owner resets a second factor in User Management; the user then signs in with the password', async ({
  page,
  js,
  browser,
  createUser,
  database,
}) => {
  const user = await createUser({ role: 'viewer' });
  await signInByApi(page, user);
  await setUp(page, js);

  await page.context().clearCookies();
  await signInByApi(page, { email: OWNER_EMAIL, password: OWNER_PASSWORD });
  await page.goto(`/user-management?q=${encodeURIComponent(user.email)}`);
  await waitForHydration(page, js);
  const row = page.getByTestId('user-row').filter({ hasText: user.email });
  await expect(row.getByText('2FA', { exact: true })).toBeVisible();
  const { username: name } = await database.db
    .selectFrom('users')
    .select('username')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  await confirmDelete(
    page,
    js,
    row.getByRole('button', { name: `Reset two-factor authentication of ${name}` }),
    `Are you sure you want to reset two-factor authentication for user ${name}? They sign in with their password alone until they set it up again, and all their sessions end at once.`,
    true,
    'confirm-reset-two-factor',
  );
  await expect(toast(page)).toContainText('Two-factor authentication reset successfully');
  await expect(row.getByText('2FA', { exact: true })).toHaveCount(0);

  const context = await browser.newContext({ javaScriptEnabled: js });
  try {
    const other = await context.newPage();
    await signIn(other, user);
    await expect(other).toHaveURL('/');
  } finally {
    await context.close();
  }
});
