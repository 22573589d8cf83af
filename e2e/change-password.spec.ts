// A temporary password confines the user to /change-password until it is changed,
// with the page's validation rules.
import { expect, test } from './support/fixtures.ts';
import { breadcrumb, postVia, recordPosts, sidebar, signIn, waitForHydration } from './support/app.ts';
import type { Page } from '@playwright/test';

function changeForm(page: Page) {
  return {
    current: page.getByLabel('Current Password', { exact: true }),
    next: page.getByLabel('New Password', { exact: true }),
    confirm: page.getByLabel('Confirm New Password', { exact: true }),
    submit: page.getByRole('button', { name: 'Change Password' }),
  };
}

async function fill(page: Page, values: { current: string; next: string; confirm: string }) {
  const form = changeForm(page);
  await form.current.fill(values.current);
  await form.next.fill(values.next);
  await form.confirm.fill(values.confirm);
}

const NEW_PASSWORD = 'Brand-New-Password-7';
const breadcrumbTrail = (page: Page) => breadcrumb(page).getByRole('listitem');

test.describe('temporary password', () => {
  test('every page leads to /change-password until the password is changed', async ({ page, createUser }) => {
    const user = await createUser({ role: 'admin', isTemporaryPassword: true });
    await signIn(page, user);
    await expect(page).toHaveURL('/change-password');
    await expect(page.getByRole('status').filter({ hasText: 'Password change required' })).toContainText(
      'temporary password',
    );

    for (const path of ['/', '/budget-planning', '/user-management', '/profile', '/no-such-page', '/dashboard']) {
      await page.goto(path);
      await expect(page, `from ${path}`).toHaveURL('/change-password');
    }
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Change Password');
    // Nothing else is reachable from here: no sidebar, no profile link; logging out still works.
    await expect(sidebar(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Profile' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  });

  test('validation messages of the change-password form', async ({ page, js, createUser }) => {
    const user = await createUser({ isTemporaryPassword: true });
    await signIn(page, user);
    await expect(page).toHaveURL('/change-password');
    await waitForHydration(page, js);
    const form = changeForm(page);
    const posts = recordPosts(page);

    // The rules of the form are checked in the browser with JavaScript, on the server without.
    const submitInvalid = async () => {
      if (js) await form.submit.click();
      else expect((await postVia(page, '/change-password', form.submit)).status()).toBe(400);
    };

    await submitInvalid();
    await expect(form.current).toHaveAccessibleDescription('Current password is required');
    await expect(form.next).toHaveAccessibleDescription('New password must be at least 8 characters');
    await expect(form.confirm).toHaveAccessibleDescription('Please confirm your new password');

    await fill(page, { current: user.password, next: 'short', confirm: 'short' });
    await submitInvalid();
    await expect(form.next).toHaveAccessibleDescription('New password must be at least 8 characters');
    await expect(page.getByText('Current password is required')).toHaveCount(0);

    await fill(page, { current: user.password, next: NEW_PASSWORD, confirm: 'Something-Else-9' });
    await submitInvalid();
    await expect(form.confirm).toHaveAccessibleDescription("New passwords don't match");

    await fill(page, { current: user.password, next: user.password, confirm: user.password });
    await submitInvalid();
    await expect(form.next).toHaveAccessibleDescription('New password must be different from the current password');

    if (js) expect(posts, 'client-side validation sends nothing').toEqual([]);

    // Whether the current password is right only the server knows.
    await fill(page, { current: 'Not-The-Password-1', next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    const response = await postVia(page, '/change-password', form.submit);
    expect(response.status()).toBe(400);
    await expect(form.current).toHaveAccessibleDescription('Current password is incorrect');

    // Still confined: nothing was changed.
    await page.goto('/');
    await expect(page).toHaveURL('/change-password');
  });

  test('a successful change shows the confirmation, then the dashboard; the new password works', async ({
    page,
    createUser,
  }) => {
    const user = await createUser({ role: 'editor', isTemporaryPassword: true });
    await signIn(page, user);
    await expect(page).toHaveURL('/change-password');

    await fill(page, { current: user.password, next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    const response = await postVia(page, '/change-password', changeForm(page).submit);
    expect(response.status()).toBe(200);
    await expect(page.getByText('Password changed successfully!')).toBeVisible();
    await expect(page.getByText('Password change required')).toHaveCount(0);

    // Two seconds later (a timer with JavaScript, a meta refresh without): the dashboard.
    await expect(page).toHaveURL('/', { timeout: 10_000 });
    await expect(page.getByTestId('access-role')).toHaveText('Editor');
    await expect(sidebar(page)).toBeVisible();
    await page.goto('/budget-planning');
    await expect(page).toHaveURL('/budget-planning');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Budget Planning');

    // Signing in again takes the new password and goes straight to the dashboard.
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByTestId('landing')).toBeVisible();
    await signIn(page, { email: user.email, password: NEW_PASSWORD });
    await expect(page).toHaveURL('/');
    await expect(page.getByTestId('access-card')).toBeVisible();
  });
});

test.describe('voluntary password change', () => {
  test('keeps the user on the page and ends their other sessions', async ({ page, createUser, signInElsewhere }) => {
    const user = await createUser();
    await signIn(page, user);
    // The same account signed in from a second browser.
    const otherPage = await signInElsewhere(user);

    await page.goto('/change-password');
    await expect(page.getByText('Password change required')).toHaveCount(0);
    await expect(breadcrumbTrail(page)).toHaveText(['', 'My Profile', 'Change Password']);
    await fill(page, { current: user.password, next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    await changeForm(page).submit.click();
    await expect(page.getByText('Password changed successfully!')).toBeVisible();
    await expect(page.getByText('Use your new password the next time you sign in.')).toBeVisible();
    // No trip to the dashboard for a voluntary change.
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    await expect(page).toHaveURL('/change-password');

    // This session stays; the other one has ended.
    await page.goto('/');
    await expect(page.getByTestId('access-card')).toBeVisible();
    await otherPage.reload();
    await expect(otherPage.getByTestId('landing')).toBeVisible();
  });
});
