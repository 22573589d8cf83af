// My Dashboard and Editor Statistics in a real browser, with and without JavaScript: an editor
// enters an expense and finds it in their feed with an edit shortcut that opens the row's form,
// their goals count it; an admin finds the editor ranked (on one of the ranking's pages), with
// the feed and analytics tabs.
import { signIn, signInByApi, waitForHydration } from './support/app.ts';
import { expect, test } from './support/fixtures.ts';
import { COMPANY } from './support/fixtures.ts';
import { apiPost, categoryIds, departmentIds, formPanel } from './support/resources.ts';

test('an editor’s entry shows in My Dashboard, whose shortcut opens it; an admin sees the editor ranked', async ({
  page,
  js,
  createUser,
  browser,
}) => {
  const editor = await createUser({ role: 'editor', companyId: COMPANY.vult });
  await signIn(page, editor);
  await expect(
    page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My Dashboard' }),
  ).toBeVisible();
  const departments = await departmentIds(page);
  const categories = await categoryIds(page, COMPANY.vult);
  const description = `e2e editor ${js ? 'js' : 'nojs'} ${Date.now()}`;
  const row = await apiPost(page, '/api/actual-expenses', {
    departmentId: departments.Finance,
    categoryId: categories['Audit & Accounting'],
    amount: 321,
    expenseDate: new Date().toISOString().slice(0, 10),
    description,
  });

  await page.goto('/editor-dashboard');
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { name: 'My Dashboard', level: 1 })).toBeVisible();
  const item = page.getByTestId('activity-feed').getByRole('listitem').filter({ hasText: description });
  await expect(item).toContainText('$321.00');
  await page.getByRole('navigation', { name: 'My dashboard sections' }).getByRole('link', { name: 'Goals' }).click();
  await expect(page.getByTestId('goals')).toContainText('1 of 50');
  await page.getByRole('navigation', { name: 'My dashboard sections' }).getByRole('link', { name: 'Insights' }).click();
  await expect(page.getByTestId('budget-status')).toBeVisible();
  await expect(page.getByText(/Plan per month: the most specific active budget/)).toBeVisible();
  await page
    .getByRole('navigation', { name: 'My dashboard sections' })
    .getByRole('link', { name: 'Activity Feed' })
    .click();
  await item.getByRole('link', { name: /^Edit/ }).click();
  await expect(page).toHaveURL(new RegExp(`/actual-expenses\\?edit=${row.id}`));
  await expect(formPanel(page).getByLabel('Description')).toHaveValue(description);

  const context = await browser.newContext({ javaScriptEnabled: js });
  const admin = await context.newPage();
  await signInByApi(admin, await createUser({ role: 'admin' }));
  await admin.goto('/editor-stats');
  await expect(admin.getByRole('heading', { name: 'Editor Statistics', level: 1 })).toBeVisible();
  await expect(admin.getByTestId('editor-summary')).toContainText('Total Editors');
  // Ranked on one of the pages (25 editors a page), reached by the page links.
  const ranking = admin.getByTestId('editor-ranking');
  for (let next = 2; !((await ranking.textContent()) ?? '').includes(editor.email) && next <= 40; next++) {
    await admin.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Next' }).click();
    await expect(admin).toHaveURL(new RegExp(`page=${next}`));
  }
  await expect(ranking).toContainText(editor.email);
  const tabs = admin.getByRole('navigation', { name: 'Editor statistics sections' });
  await tabs.getByRole('link', { name: 'Activity Feed' }).click();
  await expect(admin.getByTestId('editor-activity')).toContainText(description);
  await tabs.getByRole('link', { name: 'Analytics' }).click();
  await expect(admin.getByTestId('editor-analytics')).toContainText('Vult');
  await context.close();
});
