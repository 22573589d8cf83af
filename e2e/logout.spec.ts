// Signing out ends the server-side session, not just the cookie.
import { expect, test } from './support/fixtures.ts';
import { signIn } from './support/app.ts';

test.describe('logout', () => {
  test('Logout returns to the landing page with "Logged Out", and the old session cookie is dead', async ({
    page,
    context,
    createUser,
  }) => {
    const user = await createUser();
    await signIn(page, user);
    await expect(page.getByTestId('access-card')).toBeVisible();
    const session = (await context.cookies()).find((c) => c.name === '__session');
    expect(session, 'session cookie after sign-in').toBeTruthy();

    // Signing out is a POST: following a link to /logout (a GET) signs nobody out.
    await page.goto('/logout');
    await expect(page).toHaveURL('/');
    await expect(page.getByTestId('access-card')).toBeVisible();

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByTestId('landing')).toBeVisible();
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Logged Out');
    await expect(toast).toContainText('You have been logged out successfully.');
    expect(
      (await context.cookies()).find((c) => c.name === '__session'),
      'cookie cleared',
    ).toBeUndefined();

    // Replaying the captured cookie: the session has ended on the server.
    await context.addCookies([session!]);
    await page.goto('/');
    await expect(page.getByTestId('landing')).toBeVisible();
    await expect(page.getByTestId('access-card')).toHaveCount(0);
    await page.goto('/budget-planning');
    await expect(page).toHaveURL('/login?redirectTo=%2Fbudget-planning');
  });

  test('signing out in one browser leaves a session in another browser alive', async ({
    page,
    createUser,
    signInElsewhere,
  }) => {
    const user = await createUser();
    await signIn(page, user);
    const otherPage = await signInElsewhere(user);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByTestId('landing')).toBeVisible();

    await otherPage.reload();
    await expect(otherPage.getByTestId('access-card')).toBeVisible();
  });
});
