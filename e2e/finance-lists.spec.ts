// Finance lists where companies share department and category names: the Company column and
// dropdown (in the URL, without JavaScript too), search by amount, the category picker grouped
// by company and department (narrowed by the chosen department once JavaScript runs), and the
// Add Expense Category form naming its company.
import { expect, test, COMPANY } from './support/fixtures.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import {
  categoryIds,
  createBudget,
  departmentIds,
  formPanel,
  search,
  showing,
  tableRows,
  uniqueTag,
} from './support/resources.ts';

const SCREEN = '/budget-planning';

test.beforeEach(async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
});

test('the Company column tells rows of different companies apart, and the Company dropdown narrows the list', async ({
  page,
  js,
}, testInfo) => {
  const tag = uniqueTag(testInfo, 'company');
  const departments = await departmentIds(page);
  const [vult, spark] = [await categoryIds(page, COMPANY.vult), await categoryIds(page, COMPANY.spark)];
  // The two projects share the database: an amount of each.
  const amount = js ? 4321.09 : 4321.19;
  await createBudget(page, {
    departmentId: departments.Marketing,
    categoryId: vult['Marketing Campaigns'],
    amount,
    description: tag,
  });
  await createBudget(page, {
    departmentId: departments.Marketing,
    categoryId: spark['Marketing Campaigns'],
    amount: 55,
    description: tag,
  });

  await page.goto(`${SCREEN}?q=${tag}`);
  await waitForHydration(page, js);
  await expect(page.getByRole('columnheader', { name: 'Company' })).toBeVisible();
  await expect(tableRows(page)).toHaveCount(2);
  await expect(tableRows(page).getByRole('cell', { name: 'Vult', exact: true })).toHaveCount(1);
  await expect(tableRows(page).getByRole('cell', { name: 'Spark Marketing', exact: true })).toHaveCount(1);

  const company = page.getByRole('search').getByRole('combobox', { name: 'Company' });
  await expect(company.locator('option').first()).toHaveText('All Companies');
  await company.selectOption({ label: 'Spark Marketing' });
  if (!js) await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('companyId')).toBe(String(COMPANY.spark));
  expect(new URL(page.url()).searchParams.get('q')).toBe(tag);
  await expect(tableRows(page)).toHaveCount(1);
  await expect(tableRows(page).first().getByRole('cell').first()).toHaveText('Spark Marketing');
  await expect(showing(page)).toHaveText('Showing 1 to 1 of 1 results');
  await expect(page.getByRole('link', { name: 'Export Data' })).toHaveAttribute(
    'href',
    new RegExp(`^/export/budgets\\?q=${tag}&companyId=${COMPANY.spark}(&departmentId=)?$`),
  );

  // An amount typed with a thousands separator finds its row.
  await page.goto(SCREEN);
  await waitForHydration(page, js);
  await search(page, amount.toLocaleString('en-US'));
  await expect(tableRows(page)).toHaveCount(1);
  await expect(tableRows(page).first().getByRole('cell').first()).toHaveText('Vult');
  await expect(tableRows(page).first()).toContainText(`$${amount.toLocaleString('en-US')}`);
});

test('the table keeps within its box at 1280 px with the Company column', async ({ page, js }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const screen of ['/actual-expenses', SCREEN]) {
    await page.goto(screen);
    await waitForHydration(page, js);
    const region = page.getByRole('region', { name: screen === SCREEN ? 'Budget Planning' : 'Actual Expenses' });
    const overflow = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow, screen).toBeLessThanOrEqual(0);
  }
});

test('the category picker names company and department on every group, and the chosen department narrows it', async ({
  page,
  js,
}) => {
  await page.goto(`${SCREEN}?new=1`);
  await waitForHydration(page, js);
  const panel = formPanel(page);
  const category = panel.getByLabel('Category', { exact: true });
  await expect(category.locator('optgroup[label="Vult · Product"] option')).toHaveText(['Card Issuing']);
  expect(await category.locator('optgroup[label="Spark Marketing · Marketing"] option').allTextContents()).toEqual(
    expect.arrayContaining(['Creative Production', 'Marketing Campaigns', 'Media Buying']),
  );
  const all = await category.locator('option').count();
  await panel.getByLabel('Department', { exact: true }).selectOption({ label: 'Marketing' });
  if (js) {
    // Only Marketing's categories and those without a department are left.
    await expect.poll(() => category.locator('option').count()).toBeLessThan(all);
    const groups = await category.locator('optgroup').evaluateAll((els) => els.map((el) => el.getAttribute('label')));
    expect(groups.every((g) => g?.endsWith(' · Marketing') || !g?.includes(' · '))).toBe(true);
    expect(groups).toContain('Vult · Marketing');
  } else {
    await expect(category.locator('option')).toHaveCount(all);
  }
  if (js) {
    await expect(category.locator('option', { hasText: 'Card Issuing' })).toHaveCount(0);
    return;
  }
  // Without JavaScript every category stays on offer: one of another department is refused by the server.
  await category.selectOption({ label: 'Card Issuing' });
  await panel.getByLabel('Amount', { exact: true }).fill('12');
  await panel.getByLabel('Start Date', { exact: true }).fill('2031-02-01');
  await panel.getByLabel('End Date', { exact: true }).fill('2031-02-28');
  await panel.getByRole('button', { name: 'Create' }).click();
  await expect(category).toHaveAccessibleDescription('Category does not belong to the chosen department');
});

test('the Add Expense Category form says which company the category is for', async ({ page, js }) => {
  await page.goto(`/expense-categories?company=${COMPANY.atlas}`);
  await waitForHydration(page, js);
  await page.getByRole('link', { name: 'Add Expense Category' }).click();
  await expect(page).toHaveURL(/[?&]new=1/);
  // Named above the fields, not chosen (no Company dropdown).
  await expect(page.getByTestId('fixed-companyId')).toHaveText('Atlas Infrastructure');
  await expect(page.getByRole('combobox', { name: 'Company', exact: true })).toHaveCount(0);
  await page.goto(`/expense-categories?company=${COMPANY.vult}&new=1`);
  await expect(page.getByTestId('fixed-companyId')).toHaveText('Vult');
});
