// User Management, with and without JavaScript: an admin creates a user with the
// form, creates a temporary password that the user then signs in with (and is sent to change
// it), edits a user's permissions, and deactivates then reactivates a user. A temporary password
// and a deactivation ask first (a confirm() with JavaScript, the server's step without), as a
// delete does.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { signIn, signInByApi, waitForHydration } from './support/app.ts';
import { confirmDelete, formPanel, toast, uniqueTag } from './support/resources.ts';

const SCREEN = '/user-management';

function userRows(page: Page) {
  return page.getByTestId('user-row');
}

/** Searches the Users tab (the Search button works with and without JavaScript). */
async function searchUsers(page: Page, text: string) {
  const filters = page.getByRole('search', { name: 'Filter users' });
  await filters.getByRole('searchbox').fill(text);
  await filters.getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(text);
}

test('an admin creates a user, then a temporary password the user signs in with and must change', async ({
  page,
  js,
  browser,
  createUser,
}, testInfo) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
  await page.goto(SCREEN);
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('User Management');
  for (const tab of ['Users', 'Statistics', 'Activity Analytics', 'Activity History']) {
    await expect(
      page.getByRole('navigation', { name: 'User management tabs' }).getByRole('link', { name: tab }),
    ).toBeVisible();
  }

  await page.getByRole('link', { name: 'Add User' }).click();
  await expect(page).toHaveURL(/[?&]new=1/);
  const panel = formPanel(page);
  await expect(panel.getByRole('heading', { name: 'Create New User' })).toBeVisible();
  const name = uniqueTag(testInfo, 'newuser');
  const email = `${name}@example.com`;
  await panel.getByLabel('Username', { exact: true }).fill(name);
  await panel.getByLabel('Email', { exact: true }).fill(email);
  await panel.getByLabel('Password', { exact: true }).fill('short');
  await panel.getByRole('button', { name: 'Create User' }).click();
  await expect(panel.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(
    'Password must be at least 8 characters',
  );
  await expect(panel.getByLabel('Username', { exact: true })).toHaveValue(name);
  await panel.getByLabel('Password', { exact: true }).fill('Initial-Password-9');
  await panel.getByLabel('Role', { exact: true }).selectOption('viewer');
  await panel.getByLabel('Company', { exact: true }).selectOption({ label: 'All Companies' });
  await panel.getByRole('button', { name: 'Create User' }).click();
  await expect(toast(page)).toContainText('User created successfully');
  await expect(formPanel(page)).toHaveCount(0);

  await searchUsers(page, email);
  await expect(userRows(page)).toHaveCount(1);
  const row = userRows(page).first();
  await expect(row).toContainText(email);
  await expect(row).toContainText('Viewer');
  await expect(row).toContainText('All Companies');
  await expect(row).toContainText('Active');

  const asked = `Are you sure you want to create a temporary password for user ${name}? Their current password stops working and all their sessions end at once.`;
  await confirmDelete(
    page,
    js,
    row.getByRole('button', { name: `Create temporary password for ${name}` }),
    asked,
    true,
    'confirm-temporary-password',
  );
  const result = page.getByTestId('temporary-password');
  await expect(page.getByRole('heading', { name: 'Temporary Password Created' })).toBeVisible();
  const input = result.getByLabel('Temporary Password', { exact: true });
  await expect(input).toHaveAttribute('readonly', '');
  const password = await input.inputValue();
  expect(password.length).toBeGreaterThanOrEqual(8);
  expect(page.url()).not.toContain(password);
  await expect(result.getByRole('button', { name: 'Copy' })).toHaveCount(js ? 1 : 0);
  await result.getByRole('link', { name: 'Done' }).click();
  await expect(page.getByTestId('temporary-password')).toHaveCount(0);

  // The user signs in with it in another browser and is sent to change it.
  const context = await browser.newContext({ javaScriptEnabled: js });
  try {
    const other = await context.newPage();
    await signIn(other, { email, password });
    await expect(other).toHaveURL('/change-password');
    await expect(other.getByRole('status').filter({ hasText: 'Password change required' })).toContainText(
      'temporary password',
    );
  } finally {
    await context.close();
  }
});

test("an admin edits a user's permissions", async ({ page, js, createUser, database }) => {
  const target = await createUser({ role: 'viewer' });
  const username = target.email.split('@')[0];
  await signInByApi(page, await createUser({ role: 'admin' }));
  await page.goto(`${SCREEN}?q=${encodeURIComponent(target.email)}`);
  await waitForHydration(page, js);
  await userRows(page)
    .first()
    .getByRole('link', { name: `Permissions of ${username}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]permissions=${target.id}`));
  const panel = formPanel(page);
  await expect(panel.getByRole('heading', { name: 'User Permissions' })).toBeVisible();
  await expect(panel.getByRole('group', { name: 'Data Access' })).toBeVisible();
  await expect(panel.getByRole('group', { name: 'Actions' })).toBeVisible();
  // A viewer's role already gives financial data: checked and locked.
  const financial = panel.getByRole('checkbox', { name: /Financial Data/ });
  await expect(financial).toBeChecked();
  await expect(financial).toBeDisabled();
  await expect(panel.getByRole('checkbox', { name: 'Analytics' })).not.toBeChecked();
  await panel.getByRole('checkbox', { name: 'Analytics' }).check();
  await panel.getByRole('checkbox', { name: 'Delete' }).check();
  await panel.getByRole('button', { name: 'Update Permissions' }).click();
  await expect(toast(page)).toContainText('User permissions updated successfully');
  await expect(formPanel(page)).toHaveCount(0);

  const row = await database.db.selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
  expect(Boolean(row.canAccessAnalytics)).toBe(true);
  expect(Boolean(row.canDelete)).toBe(true);
  expect(Boolean(row.canAccessBackups)).toBe(false);

  await userRows(page)
    .first()
    .getByRole('link', { name: `Permissions of ${username}` })
    .click();
  await expect(formPanel(page).getByRole('checkbox', { name: 'Analytics' })).toBeChecked();
  await expect(formPanel(page).getByRole('checkbox', { name: 'Backups' })).not.toBeChecked();
});

test('an admin deactivates a user, finds them with Show Inactive, and reactivates them', async ({
  page,
  js,
  createUser,
}) => {
  const target = await createUser({ role: 'editor' });
  const username = target.email.split('@')[0];
  await signInByApi(page, await createUser({ role: 'admin' }));
  await page.goto(SCREEN);
  await waitForHydration(page, js);
  await searchUsers(page, target.email);
  await expect(userRows(page)).toHaveCount(1);

  const asked = `Are you sure you want to deactivate user ${username}? All their sessions end at once.`;
  await confirmDelete(
    page,
    js,
    userRows(page)
      .first()
      .getByRole('button', { name: `Deactivate ${username}` }),
    asked,
    true,
    'confirm-deactivate',
  );
  await expect(toast(page)).toContainText('User deactivated successfully');
  // Active users are listed by default.
  await expect(userRows(page)).toHaveCount(0);

  const filters = page.getByRole('search', { name: 'Filter users' });
  await filters.getByRole('switch', { name: 'Show Inactive' }).check();
  if (!js) await filters.getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('inactive')).toBe('1');
  await expect(userRows(page)).toHaveCount(1);
  await expect(userRows(page).first()).toContainText('Inactive');

  await userRows(page)
    .first()
    .getByRole('button', { name: `Activate ${username}` })
    .click();
  await expect(toast(page)).toContainText('User reactivated successfully');
  await expect(userRows(page).first()).not.toContainText('Inactive');
  await expect(
    userRows(page)
      .first()
      .getByRole('button', { name: `Deactivate ${username}` }),
  ).toBeEnabled();
});

test('a temporary password and a deactivation ask first, naming the user: declined, the user stays signed in and unchanged', async ({
  page,
  js,
  browser,
  createUser,
  database,
}) => {
  const target = await createUser({ role: 'viewer' });
  const username = target.email.split('@')[0];
  // The user is signed in elsewhere.
  const context = await browser.newContext({ javaScriptEnabled: js });
  try {
    const other = await context.newPage();
    await signIn(other, target);
    await signInByApi(page, await createUser({ role: 'admin' }));
    await page.goto(`${SCREEN}?q=${encodeURIComponent(target.email)}`);
    await waitForHydration(page, js);
    const row = userRows(page).first();
    await confirmDelete(
      page,
      js,
      row.getByRole('button', { name: `Create temporary password for ${username}` }),
      `Are you sure you want to create a temporary password for user ${username}? Their current password stops working and all their sessions end at once.`,
      false,
      'confirm-temporary-password',
    );
    await confirmDelete(
      page,
      js,
      userRows(page)
        .first()
        .getByRole('button', { name: `Deactivate ${username}` }),
      `Are you sure you want to deactivate user ${username}? All their sessions end at once.`,
      false,
      'confirm-deactivate',
    );
    await expect(page.getByTestId('temporary-password')).toHaveCount(0);
    await expect(userRows(page).first()).toContainText('Active');
    const stored = await database.db
      .selectFrom('users')
      .select(['isActive', 'isTemporaryPassword'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect([Boolean(stored.isActive), Boolean(stored.isTemporaryPassword)]).toEqual([true, false]);
    await other.goto('/profile');
    await expect(other).toHaveURL(/\/profile$/);
  } finally {
    await context.close();
  }
});

test('an admin deletes a user after the confirmation; owner rows cannot be deactivated or deleted', async ({
  page,
  js,
  createUser,
}) => {
  const target = await createUser({ role: 'viewer' });
  const username = target.email.split('@')[0];
  await signInByApi(page, await createUser({ role: 'admin' }));
  await page.goto(`${SCREEN}?q=owner%40example.com`);
  await waitForHydration(page, js);
  const owner = userRows(page).first();
  await expect(owner.getByRole('button', { name: /^Deactivate / })).toBeDisabled();
  await expect(owner.getByRole('button', { name: /^Delete / })).toBeDisabled();

  await searchUsers(page, target.email);
  const message = `Are you sure you want to delete user ${username}? This action cannot be undone.`;
  await confirmDelete(
    page,
    js,
    userRows(page)
      .first()
      .getByRole('button', { name: `Delete ${username}` }),
    message,
    false,
  );
  await expect(userRows(page)).toHaveCount(1);
  await confirmDelete(
    page,
    js,
    userRows(page)
      .first()
      .getByRole('button', { name: `Delete ${username}` }),
    message,
    true,
  );
  await expect(toast(page)).toContainText('User deleted successfully');
  await expect(userRows(page)).toHaveCount(0);
});
