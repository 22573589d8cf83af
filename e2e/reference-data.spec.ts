// Configuration screens over the reference data (departments, expense categories, companies;
// their delete confirmations and messages): the inline department remap of a
// category, creating and deleting a company, and the seeded departments over two pages.
import { expect, test, COMPANY } from './support/fixtures.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import { confirmDelete, departmentIds, formPanel, showing, tableRows, toast, uniqueTag } from './support/resources.ts';
import type { Page } from '@playwright/test';

test.beforeEach(async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
});

test.describe('expense categories', () => {
  test('one tab per company, One Network first and chosen by default', async ({ page }) => {
    await page.goto('/expense-categories');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Expense Categories');
    const tabs = page.getByRole('navigation', { name: 'Companies' }).getByRole('link');
    await expect(tabs.first()).toHaveText('One Network');
    await expect(tabs.first()).toHaveAttribute('aria-current', 'page');
    for (const name of ['Vult', 'Atlas Infrastructure', 'Spark Marketing'])
      await expect(tabs.filter({ hasText: name })).toHaveCount(1);
    // Seeded: 13 common categories and 5 of a mobile operator; all but Miscellaneous mapped.
    await expect(page.getByTestId('category-count')).toHaveText('18');
    await expect(page.getByTestId('mapped-count')).toHaveText('17');
    await expect(showing(page)).toHaveText('Showing 1 to 10 of 18 results');
    await expect(page.getByRole('combobox', { name: 'Department of Device Subsidies' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Department of Miscellaneous' })).toHaveValue('');

    await tabs.filter({ hasText: 'Vult' }).click();
    await expect(page).toHaveURL(`/expense-categories?company=${COMPANY.vult}`);
    await expect(tabs.filter({ hasText: 'Vult' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('combobox', { name: 'Department of Card Issuing' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Department of Device Subsidies' })).toHaveCount(0);
  });

  test('the department of a category is reassigned inline, to none and back; the counts follow', async ({
    page,
    js,
  }, testInfo) => {
    // Each project works on a company of its own, so the counts are not disturbed by the other.
    const company = testInfo.project.name === 'js' ? COMPANY.atlas : COMPANY.spark;
    const departments = await departmentIds(page);
    await page.goto(`/expense-categories?company=${company}&q=Software`);
    await waitForHydration(page, js);
    await expect(tableRows(page)).toHaveCount(1);
    const select = page.getByRole('combobox', { name: 'Department of Software Licences' });
    await expect(select).toHaveValue(String(departments.IT));

    const total = page.getByTestId('category-count');
    const mapped = page.getByTestId('mapped-count');
    const totalBefore = Number(await total.textContent());
    const mappedBefore = Number(await mapped.textContent());
    expect(mappedBefore).toBeGreaterThan(0);

    await remap(page, js, select, 'None');
    await expect(toast(page)).toContainText('Department mapping updated successfully');
    await expect(mapped).toHaveText(String(mappedBefore - 1));
    await expect(total).toHaveText(String(totalBefore));
    await expect(select).toHaveValue('');
    await expect(select.locator('option:checked')).toHaveText('None');
    // The page stays where it was: the tab and the search.
    const url = new URL(page.url());
    expect(url.searchParams.get('company')).toBe(String(company));
    expect(url.searchParams.get('q')).toBe('Software');

    await remap(page, js, select, 'Finance');
    await expect(mapped).toHaveText(String(mappedBefore));
    await expect(select).toHaveValue(String(departments.Finance));
    // A fresh load shows the stored mapping.
    await page.reload();
    await expect(select).toHaveValue(String(departments.Finance));
    await expect(mapped).toHaveText(String(mappedBefore));
    await waitForHydration(page, js);

    // Back to the seeded mapping.
    await remap(page, js, select, 'IT');
    await expect(toast(page)).toContainText('Department mapping updated successfully');
    await expect(select).toHaveValue(String(departments.IT));
  });
});

/** Chooses a department in a row's select: it submits at once with JS, with Save without. */
async function remap(page: Page, js: boolean, select: ReturnType<Page['getByRole']>, label: string) {
  const saved = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/expense-categories',
  );
  await select.selectOption({ label });
  if (!js) {
    const save = select.locator('xpath=ancestor::form').getByRole('button', { name: 'Save' });
    await save.click();
  }
  await saved;
}

test.describe('companies', () => {
  test('a company is added, shown as a card, and deleted after confirmation', async ({ page, js }, testInfo) => {
    const name = `E2E Company ${uniqueTag(testInfo)}`;
    await page.goto('/companies');
    await waitForHydration(page, js);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Companies');
    const cards = page.getByTestId('company-card');
    await expect(cards.filter({ hasText: 'One Network' }).first()).toBeVisible();
    await expect(cards.filter({ hasText: 'Vult' }).first()).toContainText('Fintech');

    await page.getByRole('link', { name: 'Add Company' }).click();
    const panel = formPanel(page);
    await expect(panel.getByRole('heading', { name: 'Add New Company' })).toBeVisible();
    // Names are unique: only the server knows, so with JavaScript too the answer comes back
    // into the open form.
    const nameInput = panel.getByLabel('Name', { exact: true });
    await nameInput.fill('Vult');
    await panel.getByLabel('Type', { exact: true }).selectOption({ label: 'Fintech' });
    await panel.getByRole('button', { name: 'Create' }).click();
    await expect(nameInput).toHaveAccessibleDescription('A company with this name already exists');
    await expect(panel.getByRole('alert')).toContainText('Failed to create company');
    await expect(nameInput).toHaveValue('Vult');

    await nameInput.fill(name);
    // Marketing: a company of this type adds no Company Metrics entry to anyone's sidebar.
    await panel.getByLabel('Type', { exact: true }).selectOption({ label: 'Marketing' });
    await panel.getByLabel('Description', { exact: true }).fill('Created by the e2e suite');
    await panel.getByRole('button', { name: 'Create' }).click();

    await expect(toast(page)).toContainText('Company created successfully');
    await expect(panel).toHaveCount(0);
    const card = cards.filter({ has: page.getByRole('heading', { name, exact: true }) });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('Marketing');
    await expect(card).toContainText('Created by the e2e suite');
    await expect(card).toContainText(/Created \d{2}\/\d{2}\/\d{4}/);

    const message = `Are you sure you want to delete ${name}?`;
    await confirmDelete(page, js, card.getByRole('button', { name: `Delete ${name}` }), message, false);
    await expect(card).toHaveCount(1);

    await confirmDelete(page, js, card.getByRole('button', { name: `Delete ${name}` }), message, true);
    await expect(toast(page)).toContainText('Company deleted successfully');
    await expect(card).toHaveCount(0);
    await expect(cards.filter({ hasText: 'One Network' }).first()).toBeVisible();
  });
});

test.describe('departments', () => {
  // The other project's delete test may add a department while this one runs: its name sorts
  // after the seeded ones ("ZZ …"), so the seeded 16 come first and the total may be 17.
  test('the 16 seeded departments, by name, over two pages', async ({ page, js }) => {
    await page.goto('/departments');
    await waitForHydration(page, js);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Departments');
    await expect(showing(page)).toHaveText(/^Showing 1 to 10 of 1[67] results$/);
    const names = tableRows(page).locator('td:first-child');
    await expect(names).toHaveText([
      'Administration',
      'Business Development',
      'Compliance',
      'Customer Support',
      'Engineering',
      'Finance',
      'Human Resources',
      'IT',
      'Legal',
      'Marketing',
    ]);

    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL('/departments?page=2');
    await expect(showing(page)).toHaveText(/^Showing 11 to (16 of 16|17 of 17) results$/);
    const secondPage = [
      'Network Operations',
      'Operations',
      'Procurement',
      'Product',
      'Research & Development',
      'Sales',
    ];
    for (const [i, name] of secondPage.entries()) await expect(names.nth(i)).toHaveText(name);
    if ((await names.count()) > secondPage.length) await expect(names.nth(secondPage.length)).toHaveText(/^ZZ Dept-/);
    // Descriptions are shown too.
    await expect(tableRows(page).filter({ hasText: 'Sales' })).toContainText('Direct and channel sales');
  });

  test('a delete asks first; without JavaScript the confirmation names the row it is about', async ({
    page,
    js,
    database,
  }, testInfo) => {
    // Sorted after the seeded departments, which the listing test above counts.
    const name = `ZZ ${uniqueTag(testInfo, 'Dept')}`;
    const { id } = await database.db
      .insertInto('departments')
      .values({ name, description: 'To be deleted' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await page.goto(`/departments?q=${encodeURIComponent(name)}`);
    await waitForHydration(page, js);
    await expect(tableRows(page)).toHaveCount(1);
    const button = () =>
      tableRows(page)
        .first()
        .getByRole('button', { name: `Delete department ${id}` });
    const message = 'Are you sure you want to delete this department?';
    if (!js) {
      await button().click();
      await expect(page.getByTestId('confirm-delete')).toContainText(message);
      await expect(page.getByTestId('confirm-subject')).toHaveText(`Department #${id}: ${name}`);
      await page.getByTestId('confirm-delete').getByRole('link', { name: 'Cancel' }).click();
      await expect(page.getByTestId('confirm-delete')).toHaveCount(0);
    } else {
      await confirmDelete(page, js, button(), message, false);
    }
    await expect(tableRows(page)).toHaveCount(1);
    await confirmDelete(page, js, button(), message, true);
    await expect(toast(page)).toContainText('Department deleted successfully');
    expect(
      await database.db.selectFrom('departments').select('id').where('id', '=', id).executeTakeFirst(),
    ).toBeUndefined();
  });
});
