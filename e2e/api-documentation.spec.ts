// API Documentation in a real browser, with and without JavaScript: the four
// tabs rendered from the served OpenAPI document, the true session rule and rate limits; the
// endpoints one tag at a time and paged, or filtered across tags with contents by area, the
// schemas paged.
import { signInByApi, waitForHydration } from './support/app.ts';
import { expect, test } from './support/fixtures.ts';

test('the four tabs, from the OpenAPI document', async ({ page, js, createUser }) => {
  await signInByApi(page, await createUser({ role: 'viewer' }));
  await page.goto('/api-documentation');
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { name: 'API Documentation', level: 1 })).toBeVisible();
  await expect(page.getByTestId('api-version')).toContainText('16 shared departments');
  const tabs = page.getByRole('navigation', { name: 'API documentation sections' });
  await expect(page.getByTestId('filters')).toContainText('companyType');
  await tabs.getByRole('link', { name: 'Endpoints' }).click();
  await expect(page.getByTestId('endpoints')).toContainText('/api/auth/login');
  const groups = page.getByRole('navigation', { name: 'Endpoint groups' });
  await groups.getByRole('link', { name: /^Resources \(\d+\)$/ }).click();
  await expect(groups.getByRole('link', { name: /^Resources/ })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('endpoints')).toContainText('/api/budgets');
  await expect(page.getByTestId('endpoints')).not.toContainText('/api/budgets/{id}');
  await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/tag=Resources.*page=2/);
  await expect(page.getByTestId('endpoints')).toContainText('/api/budgets/{id}');
  // The filter is a GET form over every tag; the contents lead to each area of the answer.
  await page.getByRole('search', { name: 'Filter endpoints' }).getByLabel('Filter endpoints').fill('budget');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/tab=endpoints&q=budget/);
  await expect(page.getByTestId('endpoints')).toContainText(/\d+ endpoints match “budget”/);
  await expect(page.getByTestId('endpoints')).not.toContainText('/api/auth/login');
  const contents = page.getByRole('navigation', { name: 'Contents' });
  await contents.getByRole('link', { name: '/api/ai' }).click();
  await expect(page).toHaveURL(/#endpoints-api-ai$/);
  await expect(page.locator('#endpoints-api-ai')).toContainText('/api/ai/budget-analysis');
  await expect(page.locator('#endpoints-api-ai')).toBeInViewport();
  await page.getByRole('link', { name: 'Clear' }).click();
  await expect(page.getByTestId('endpoints')).toContainText('/api/auth/login');
  await tabs.getByRole('link', { name: 'Data Schemas' }).click();
  await expect(page.getByTestId('schemas')).toContainText('departmentId');
  const schemaLinks = page.getByRole('navigation', { name: 'Data schemas' });
  await schemaLinks.getByRole('link', { name: 'VultCardTypes', exact: true }).click();
  await expect(page).toHaveURL(/tab=schemas&page=\d/);
  await expect(page.locator('#schema-VultCardTypes')).toContainText('VultCardTypes');
  // Each resource's answer has a schema of its own beside what a create sends.
  await schemaLinks.getByRole('link', { name: 'VultCardTypesRow', exact: true }).click();
  await expect(page.locator('#schema-VultCardTypesRow')).toContainText('updatedAt');
  await tabs.getByRole('link', { name: 'Authentication' }).click();
  await expect(page.getByTestId('authentication')).toContainText('Every call needs a session');
  await expect(page.getByTestId('authentication')).toContainText('requests a minute');
  const response = await page.request.get('/api/openapi.json');
  expect(response.status()).toBe(200);
  expect((await response.json()).openapi).toBe('3.1.0');
});
