// Signed-out visitors: the landing page at "/" and at unknown paths.
import { expect, test } from './support/fixtures.ts';

test.describe('landing page (signed out)', () => {
  test('"/" shows the landing page with its calls to action and the seeded companies', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    const landing = page.getByTestId('landing');
    await expect(landing).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Financial Data Warehouse & Analytics Platform');

    await expect(page.getByRole('link', { name: 'Access Platform' })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('link', { name: 'View Documentation' })).toHaveAttribute('href', '/api-documentation');
    await expect(page.getByRole('link', { name: 'Secure Login' })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('link', { name: 'System Status' })).toBeVisible();

    // Stats row, and one card per seeded company (from the database, in id order).
    await expect(landing.getByText('Departments per company')).toBeVisible();
    await expect(page.getByRole('heading', { level: 3 })).toHaveText([
      'One Network',
      'Vult',
      'Atlas Infrastructure',
      'Spark Marketing',
    ]);
    // Nothing of the signed-in shell leaks onto the public page.
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
  });

  test('Access Platform leads to the login page', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Access Platform' }).click();
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('heading', { name: 'Sign in to Group Finance Hub' })).toBeVisible();
  });

  test('View Documentation asks a visitor to sign in first, then returns there', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'View Documentation' }).click();
    await expect(page).toHaveURL('/login?redirectTo=%2Fapi-documentation');
  });

  test('an unknown path shows the landing page with status 404', async ({ page }) => {
    const response = await page.goto('/no-such-page/at-all');
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId('landing')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Access Platform' })).toBeVisible();
  });

  test('a known screen redirects a visitor to the login page with redirectTo', async ({ page }) => {
    await page.goto('/budget-planning?year=2025');
    await expect(page).toHaveURL('/login?redirectTo=%2Fbudget-planning%3Fyear%3D2025');
    await expect(page.getByRole('heading', { name: 'Sign in to Group Finance Hub' })).toBeVisible();
  });
});
