// Profile, Settings and the gear's pop-over (docs/screens.md, docs/decisions.md),
// with JavaScript and without.
import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { postVia, signIn, signInByApi, waitForHydration } from './support/app.ts';
import { translated } from './support/i18n.ts';

function profileForm(page: Page) {
  return {
    username: page.getByLabel('Username', { exact: true }),
    email: page.getByLabel('Email', { exact: true }),
    fullName: page.getByLabel('Full Name', { exact: true }),
    position: page.getByLabel('Position', { exact: true }),
    phone: page.getByLabel('Phone Number', { exact: true }),
    save: page.getByRole('button', { name: 'Save Changes' }),
  };
}

const toast = (page: Page) => page.getByTestId('toast');

test.describe('profile', () => {
  test('edit with a validation error, then success; cancel resets', async ({ page, js, createUser }) => {
    const user = await createUser({ role: 'editor' });
    await signInByApi(page, user);
    await page.goto('/profile');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My Profile');
    await expect(page.getByTestId('profile-email')).toHaveText(user.email);
    await expect(page.getByTestId('account-info')).toContainText(String(user.id));
    await expect(page.getByTestId('account-info')).toContainText('All Companies');

    await page.getByRole('link', { name: 'Edit Profile' }).click();
    await expect(page).toHaveURL(/\/profile\?edit=1$/);
    await waitForHydration(page, js);
    const form = profileForm(page);

    // Cancel drops what was typed.
    await form.fullName.fill('Typed but cancelled');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await expect(page).toHaveURL('/profile');
    await expect(page.getByTestId('profile-full-name')).toHaveText('Not set');

    await page.getByRole('link', { name: 'Edit Profile' }).click();
    await waitForHydration(page, js);
    await form.email.fill('not-an-address');
    await form.username.fill('');
    if (js) await form.save.click();
    else expect((await postVia(page, '/profile', form.save)).status()).toBe(400);
    await expect(form.email).toHaveAccessibleDescription('Please enter a valid email address');
    await expect(form.username).toHaveAccessibleDescription('Username and email are required');

    // An address another account uses: only the server knows.
    await form.username.fill(`renamed-${user.id}`);
    await form.email.fill('owner@example.com');
    expect((await postVia(page, '/profile', form.save)).status()).toBe(409);
    await expect(form.email).toHaveAccessibleDescription('This email address is already in use');

    const newEmail = `renamed-${user.id}-${js ? 'js' : 'nojs'}@example.com`;
    await form.email.fill(newEmail);
    await form.fullName.fill('Grace Hopper');
    await form.position.fill('Controller');
    await form.phone.fill('+1 555 0100');
    await form.save.click();
    await expect(page).toHaveURL('/profile');
    await expect(toast(page)).toContainText('Profile Updated');
    await expect(page.getByTestId('profile-email')).toHaveText(newEmail);
    await expect(page.getByTestId('profile-full-name')).toHaveText('Grace Hopper');
    await expect(page.getByTestId('profile-username')).toHaveText(`renamed-${user.id}`);
    await page.reload();
    await expect(page.getByTestId('profile-position')).toHaveText('Controller');
  });

  test('change password from the profile', async ({ page, js, createUser }) => {
    const user = await createUser();
    await signInByApi(page, user);
    await page.goto('/profile');
    await page.getByRole('link', { name: 'Change Password' }).click();
    await expect(page).toHaveURL(/password=1/);
    await waitForHydration(page, js);
    const current = page.getByLabel('Current Password', { exact: true });
    const next = page.getByLabel('New Password', { exact: true });
    const confirm = page.getByLabel('Confirm New Password', { exact: true });
    const submit = page.getByRole('button', { name: 'Change Password' });

    if (js) await submit.click();
    else expect((await postVia(page, '/profile', submit)).status()).toBe(400);
    await expect(current).toHaveAccessibleDescription('All password fields are required');

    await current.fill(user.password);
    await next.fill('Short-1');
    await confirm.fill('Short-1');
    if (js) await submit.click();
    else await postVia(page, '/profile', submit);
    await expect(next).toHaveAccessibleDescription('New password must be at least 8 characters');

    await current.fill(user.password);
    await next.fill('Brand-New-Password-8');
    await confirm.fill('Brand-New-Password-9');
    if (js) await submit.click();
    else await postVia(page, '/profile', submit);
    await expect(confirm).toHaveAccessibleDescription('New passwords do not match');

    await current.fill('Wrong-Password-1');
    await next.fill('Brand-New-Password-8');
    await confirm.fill('Brand-New-Password-8');
    expect((await postVia(page, '/profile', submit)).status()).toBe(400);
    await expect(current).toHaveAccessibleDescription('Current password is incorrect');

    await current.fill(user.password);
    await next.fill('Brand-New-Password-8');
    await confirm.fill('Brand-New-Password-8');
    await submit.click();
    await expect(page).toHaveURL('/profile');
    await expect(toast(page)).toContainText('Password Changed');
  });
});

test.describe('settings', () => {
  test('the dark theme is applied by the server on the next page load', async ({ page, js, createUser }) => {
    const user = await createUser();
    await signIn(page, user);
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    await page.goto('/settings?tab=appearance');
    await waitForHydration(page, js);
    await page.getByRole('radio', { name: 'Dark' }).check();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page)).toContainText('Settings updated');
    await expect(toast(page)).toContainText('Your settings have been saved successfully.');
    await expect(page).toHaveURL('/settings?tab=appearance');

    // A fresh document from the server already carries the theme (no flash).
    const response = await page.request.get('/budget-planning');
    expect(await response.text()).toMatch(/<html[^>]*class="[^"]*\bdark\b/);
    await page.goto('/');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(page.getByRole('radio', { name: 'Dark' })).toHaveCount(0);
    await page.goto('/settings?tab=appearance');
    await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();

    // Auto follows the operating system through a media query.
    await page.getByRole('radio', { name: 'Auto (follow system)' }).check();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page)).toContainText('Settings updated');
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\btheme-system\b/);
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = await page.locator('html').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe('rgb(2, 6, 23)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await page.locator('html').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(248, 250, 252)',
    );
  });

  test('choices on every tab persist after a reload', async ({ page, js, createUser }) => {
    const user = await createUser();
    await signInByApi(page, user);
    await page.goto('/settings');
    await expect(
      page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Notifications' }),
    ).toHaveAttribute('aria-current', 'page');
    for (const tab of ['Appearance', 'Preferences', 'Security', 'System']) {
      await expect(
        page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: tab }),
      ).toBeVisible();
    }

    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Preferences' })
      .click();
    await expect(page).toHaveURL('/settings?tab=preferences');
    await waitForHydration(page, js);
    await page.getByLabel('Language').selectOption('de');
    await page.getByLabel('Timezone').selectOption('America/Chicago');
    await page.getByLabel('Default currency').selectOption('GBP');
    await page.getByRole('switch', { name: 'Report e-mails' }).uncheck();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    // The new language applies at once (docs/languages.md): the page answers in German.
    const de = (message: string) => translated('de', message);
    await expect(toast(page)).toContainText(de('Settings updated'));
    await page.reload();
    await expect(page.getByLabel(de('Language'))).toHaveValue('de');
    await expect(page.getByLabel(de('Timezone'))).toHaveValue('America/Chicago');
    await expect(page.getByLabel(de('Default currency'))).toHaveValue('GBP');
    await expect(page.getByRole('switch', { name: de('Report e-mails') })).not.toBeChecked();
    // Back to English for the other tabs.
    await waitForHydration(page, js);
    await page.getByLabel(de('Language')).selectOption('en');
    await page.getByRole('button', { name: de('Save Settings') }).click();
    await expect(toast(page)).toContainText('Settings updated');

    await page.goto('/settings?tab=security');
    await waitForHydration(page, js);
    // Two-factor is off for a new account: the row says so and leads to its setup.
    await expect(page.getByRole('link', { name: 'Set up' })).toHaveAttribute('href', '/two-factor');
    await expect(page.getByRole('link', { name: 'Change Password' })).toHaveAttribute('href', '/profile?password=1');
    await page.getByLabel('Session timeout').selectOption({ label: '8 hours' });
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page)).toContainText('Settings updated');
    await page.reload();
    await expect(page.getByLabel('Session timeout')).toHaveValue('480');

    await page.goto('/settings?tab=notifications');
    await waitForHydration(page, js);
    if (!js) await expect(page.getByText('Push notifications need JavaScript')).toBeVisible();
    await page.getByRole('switch', { name: 'Sound' }).uncheck();
    await page.getByRole('switch', { name: 'Financial notifications' }).uncheck();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page)).toContainText('Settings updated');
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Sound' })).not.toBeChecked();
    await expect(page.getByRole('switch', { name: 'Vibration' })).toBeChecked();
    await expect(page.getByRole('switch', { name: 'Financial notifications' })).not.toBeChecked();
    await expect(page.getByRole('switch', { name: 'System notifications' })).toBeChecked();

    const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
    await page.goto('/settings?tab=appearance');
    await expect(sidebar).toHaveCSS('width', '256px');
    // The group chevron is the summary's ::after; it turns with a transition until animations are off.
    const chevronTransition = () =>
      sidebar
        .locator('summary')
        .first()
        .evaluate((el) => getComputedStyle(el, '::after').transitionDuration);
    expect(await chevronTransition()).not.toBe('0s');
    await waitForHydration(page, js);
    await page.getByRole('switch', { name: 'Compact sidebar' }).check();
    await page.getByRole('switch', { name: 'Animations' }).uncheck();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page)).toContainText('Settings updated');
    await page.goto('/');
    await expect(page.locator('html')).toHaveClass(/\bcompact-sidebar\b/);
    await expect(page.locator('html')).toHaveClass(/\breduce-motion\b/);
    // The choices take effect: a narrower sidebar, and no transitions.
    await expect(sidebar).toHaveCSS('width', '208px');
    await expect.poll(chevronTransition).toBe('0s');
  });

  test('system tab: version, statuses, report download, clear cache', async ({ page, js, createUser }) => {
    const user = await createUser();
    await signInByApi(page, user);
    await page.goto('/settings?tab=system');
    const pkg = JSON.parse(await fs.readFile('package.json', 'utf8'));
    await expect(page.getByTestId('app-version')).toHaveText(pkg.version);
    await expect(page.getByTestId('system-statuses')).toContainText('Database');
    await expect(page.getByTestId('system-statuses')).toContainText('Online');
    await expect(page.getByTestId('system-statuses')).toContainText('Job engine');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download report' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^finhub-report-\d{4}-\d{2}-\d{2}\.json$/);
    const report = JSON.parse(await fs.readFile((await download.path())!, 'utf8'));
    expect(report.app.version).toBe(pkg.version);
    expect(report.user.id).toBe(user.id);
    expect(report.settings.theme).toBe('light');

    await waitForHydration(page, js);
    await page.getByRole('button', { name: 'Clear cache' }).click();
    await expect(toast(page)).toContainText('Cache cleared');
  });

  test('the gear: a pop-over saving one field at a time with JavaScript, a link to /settings without', async ({
    page,
    js,
    createUser,
  }) => {
    const user = await createUser();
    await signIn(page, user);
    await waitForHydration(page, js);
    if (!js) {
      await expect(page.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
      await page.getByRole('link', { name: 'Settings' }).click();
      await expect(page).toHaveURL('/settings');
      return;
    }
    await page.getByRole('button', { name: 'Settings' }).click();
    const panel = page.locator('[aria-label="Quick settings"]');
    await expect(panel.getByText('Quick Settings')).toBeVisible();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/user-settings')),
      panel.locator('select[name="theme"]').selectOption('dark'),
    ]);
    expect(response.status()).toBe(200);
    expect(JSON.parse(response.request().postData()!)).toEqual({ theme: 'dark' });
    await expect(page.getByTestId('quick-settings-status')).toContainText('Settings updated');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);

    const [second] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/user-settings')),
      // A controlled switch: its state follows the saved answer, so click rather than uncheck.
      panel.getByRole('checkbox', { name: 'Security' }).click(),
    ]);
    await expect(panel.getByRole('checkbox', { name: 'Security' })).not.toBeChecked();
    expect(JSON.parse(second.request().postData()!).notificationTypes.security).toBe(false);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);

    // The panel reads the saved values when it opens again; its link to the full page closes it.
    await waitForHydration(page, js);
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(panel.locator('select[name="theme"]')).toHaveValue('dark');
    await expect(panel.getByRole('checkbox', { name: 'Security' })).not.toBeChecked();
    await panel.getByRole('link', { name: 'All settings' }).click();
    await expect(page).toHaveURL('/settings');
    await expect(panel).toHaveCount(0);
  });
});
