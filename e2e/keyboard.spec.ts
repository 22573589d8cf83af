// Keyboard-only flows, with and without JavaScript: every control is reached with Tab /
// Shift+Tab and used with Enter, Space or typing (page.keyboard only: no clicks, no fill()).
// Locators only name the element focus should reach; page.goto stands for typing a URL.
// Along the way: a visible focus indicator on what is reached, and with JavaScript the form
// dialog takes the focus, keeps it (Tab cycles inside) and Escape closes it, giving it back.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { waitForHydration } from './support/app.ts';
import { formPanel, tableRows, toast, uniqueTag } from './support/resources.ts';

// Date inputs take their digits in the locale's order (month, day, year).
test.use({ locale: 'en-US' });

async function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el === document.activeElement, undefined, { timeout: 2_000 }).catch(() => false);
}

/** What has the focus, for failure messages. */
async function focusDescription(page: Page): Promise<string> {
  const focused = page.locator(':focus');
  if ((await focused.count()) === 0) return 'nothing (the body)';
  return focused.evaluate(
    (el) =>
      `<${el.tagName.toLowerCase()}> ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60)}`,
  );
}

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus, then checks that the focus
 * is visible (an outline or a ring). Fails after `max` presses.
 */
async function tabTo(page: Page, target: Locator, { max = 120, back = false } = {}): Promise<void> {
  for (let i = 0; i <= max; i++) {
    if (await isFocused(target)) {
      await expectVisibleFocus(page, target);
      return;
    }
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target} in ${max} presses (focus is on ${await focusDescription(page)})`);
}

/** The focused element shows where it is: an outline, or a box-shadow ring. */
async function expectVisibleFocus(page: Page, target: Locator): Promise<void> {
  const style = await target.evaluate((el) => {
    const s = getComputedStyle(el);
    return { outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0, ring: s.boxShadow !== 'none' };
  });
  expect(style.outline || style.ring, `visible focus on ${await focusDescription(page)}`).toBe(true);
}

/** Signs in on /login with the keyboard only. */
async function keyboardSignIn(page: Page, js: boolean, user: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await waitForHydration(page, js);
  await tabTo(page, page.getByLabel('Email', { exact: true }));
  await page.keyboard.type(user.email);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/login/);
}

/** Opens the page (a typed URL) and waits until it is interactive. */
async function visit(page: Page, js: boolean, url: string): Promise<void> {
  await page.goto(url);
  await waitForHydration(page, js);
}

// Many single key presses with a focus check after each: a generous ceiling for a busy CI machine.
test.describe.configure({ timeout: 90_000 });

test('sign in with the keyboard', async ({ page, js, createUser }) => {
  const user = await createUser({ role: 'viewer' });
  await keyboardSignIn(page, js, user);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('add a budget entry with the keyboard', async ({ page, js, createUser }, testInfo) => {
  const tag = uniqueTag(testInfo, 'kbd');
  await keyboardSignIn(page, js, await createUser({ role: 'admin' }));
  await visit(page, js, '/budget-planning');

  const add = page.getByRole('link', { name: 'Add Budget Entry' });
  await tabTo(page, add);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]new=1/);
  const panel = formPanel(page);
  await expect(panel).toBeVisible();

  if (js) {
    // The dialog takes the focus and keeps it: Tab and Shift+Tab cycle inside it.
    const dialog = page.getByRole('dialog');
    const focusInDialog = () => dialog.evaluate((el) => el.contains(document.activeElement));
    await expect.poll(focusInDialog, { message: 'the dialog takes the focus' }).toBe(true);
    for (let i = 0; i < 25; i++) await page.keyboard.press('Tab');
    expect(await focusInDialog(), 'focus stays in the dialog (Tab)').toBe(true);
    for (let i = 0; i < 25; i++) await page.keyboard.press('Shift+Tab');
    expect(await focusInDialog(), 'focus stays in the dialog (Shift+Tab)').toBe(true);
    // Escape closes it and gives the focus back to the link that opened it.
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(page).not.toHaveURL(/[?&]new=1/);
    await expect(add).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(panel).toBeVisible();
  }

  await tabTo(page, panel.getByLabel('Department', { exact: true }));
  await page.keyboard.type('Product');
  await tabTo(page, panel.getByLabel('Category', { exact: true }));
  await page.keyboard.type('Card Issuing');
  await tabTo(page, panel.getByLabel('Amount', { exact: true }));
  await page.keyboard.type('1234.50');
  await tabTo(page, panel.getByLabel('Start Date', { exact: true }));
  await page.keyboard.type('03/01/2031');
  await tabTo(page, panel.getByLabel('End Date', { exact: true }));
  await page.keyboard.type('03/31/2031');
  await tabTo(page, panel.getByLabel('Description', { exact: true }));
  await page.keyboard.type(`${tag} added with the keyboard`);

  await expect(panel.getByLabel('Department', { exact: true }).locator('option:checked')).toHaveText('Product');
  await expect(panel.getByLabel('Category', { exact: true }).locator('option:checked')).toHaveText('Card Issuing');
  await expect(panel.getByLabel('Start Date', { exact: true })).toHaveValue('03/01/2031');

  await tabTo(page, panel.getByRole('button', { name: 'Create' }));
  await page.keyboard.press('Enter');
  await expect(toast(page)).toContainText('Budget entry created successfully');
  await expect(panel).toHaveCount(0);

  await visit(page, js, `/budget-planning?q=${tag}`);
  const rows = tableRows(page);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Product');
});

test("edit a user's permissions with the keyboard", async ({ page, js, createUser, database }) => {
  const target = await createUser({ role: 'viewer' });
  await keyboardSignIn(page, js, await createUser({ role: 'admin' }));
  await visit(page, js, `/user-management?tab=users&q=${encodeURIComponent(target.email)}`);

  const username = target.email.split('@')[0];
  await tabTo(page, page.getByRole('link', { name: `Permissions of ${username}` }));
  await page.keyboard.press('Enter');
  const panel = formPanel(page);
  await expect(panel.getByRole('heading', { name: 'User Permissions' })).toBeVisible();

  const analytics = panel.getByRole('checkbox', { name: 'Analytics', exact: true });
  await expect(analytics).not.toBeChecked();
  await tabTo(page, analytics);
  await page.keyboard.press('Space');
  await expect(analytics).toBeChecked();
  await tabTo(page, panel.getByRole('button', { name: 'Update Permissions' }));
  await page.keyboard.press('Enter');
  await expect(toast(page)).toBeVisible();
  await expect(panel).toHaveCount(0);

  await expect
    .poll(
      async () =>
        (
          await database.db
            .selectFrom('users')
            .select('canAccessAnalytics')
            .where('id', '=', target.id)
            .executeTakeFirstOrThrow()
        ).canAccessAnalytics,
    )
    .toBeTruthy();
});

test('change a setting with the keyboard', async ({ page, js, createUser }) => {
  await keyboardSignIn(page, js, await createUser({ role: 'viewer' }));
  await visit(page, js, '/settings?tab=preferences');

  const currency = page.getByLabel('Default currency', { exact: true });
  await expect(currency).toHaveValue('USD');
  await tabTo(page, currency);
  await page.keyboard.type('EUR');
  await expect(currency).toHaveValue('EUR');
  const reports = page.getByRole('switch', { name: 'Report e-mails' });
  const before = await reports.isChecked();
  await tabTo(page, reports);
  await page.keyboard.press('Space');
  await tabTo(page, page.getByRole('button', { name: 'Save Settings' }));
  await page.keyboard.press('Enter');
  await expect(toast(page)).toContainText('Settings updated');

  await visit(page, js, '/settings?tab=preferences');
  await expect(page.getByLabel('Default currency', { exact: true })).toHaveValue('EUR');
  expect(await page.getByRole('switch', { name: 'Report e-mails' }).isChecked()).toBe(!before);
});
