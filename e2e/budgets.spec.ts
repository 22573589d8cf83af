// Budget Planning, the generic list screen (the behaviour every list screen shares):
// the add/edit form and its validation, search, the department filter, pagination and
// sorting, delete with its confirmation, and the CSV export of the filtered list.
// Both projects share one database: every test tags its rows (description) and searches for
// the tag, so it only ever sees its own rows.
import { expect, test, COMPANY } from './support/fixtures.ts';
import {
  expectSameDocument,
  markDocument,
  postVia,
  recordPosts,
  signInByApi,
  waitForHydration,
} from './support/app.ts';
import {
  categoryIds,
  confirmDelete,
  createBudget,
  departmentIds,
  download,
  formPanel,
  parseCsv,
  search,
  showing,
  tableRows,
  toast,
  uniqueTag,
} from './support/resources.ts';
import type { Page } from '@playwright/test';

const SCREEN = '/budget-planning';

function budgetForm(page: Page) {
  const panel = formPanel(page);
  return {
    panel,
    department: panel.getByLabel('Department', { exact: true }),
    category: panel.getByLabel('Category', { exact: true }),
    amount: panel.getByLabel('Amount', { exact: true }),
    period: panel.getByLabel('Period', { exact: true }),
    startDate: panel.getByLabel('Start Date', { exact: true }),
    endDate: panel.getByLabel('End Date', { exact: true }),
    status: panel.getByLabel('Status', { exact: true }),
    description: panel.getByLabel('Description', { exact: true }),
    create: panel.getByRole('button', { name: 'Create' }),
    update: panel.getByRole('button', { name: 'Update' }),
    cancel: panel.getByRole('link', { name: 'Cancel' }),
  };
}

/** Submits the form expecting a validation failure: in the browser with JS, by the server (400) without. */
async function submitInvalid(page: Page, js: boolean, button: ReturnType<typeof budgetForm>['create']) {
  if (js) await button.click();
  else expect((await postVia(page, SCREEN, button)).status()).toBe(400);
}

let ids: { departments: Record<string, number>; vult: Record<string, number> };

test.beforeEach(async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
  ids = { departments: await departmentIds(page), vult: await categoryIds(page, COMPANY.vult) };
});

test('create an entry with the form, after the required fields are checked', async ({ page, js }, testInfo) => {
  const tag = uniqueTag(testInfo, 'budget');
  await page.goto(`${SCREEN}?q=${tag}`);
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Budget Planning');
  await expect(tableRows(page)).toHaveCount(0);
  await expect(page.getByText('No results found.')).toBeVisible();
  await expect(showing(page)).toHaveText('Showing 0 to 0 of 0 results');

  await page.getByRole('link', { name: 'Add Budget Entry' }).click();
  await expect(page).toHaveURL(/[?&]new=1/);
  const form = budgetForm(page);
  await expect(form.panel.getByRole('heading', { name: 'Add Budget Entry' })).toBeVisible();
  await expect(form.period).toHaveValue('monthly');
  await expect(form.status).toHaveValue('active');

  await submitInvalid(page, js, form.create);
  await expect(form.department).toHaveAccessibleDescription('Department is required');
  await expect(form.category).toHaveAccessibleDescription('Category is required');
  await expect(form.amount).toHaveAccessibleDescription('Amount is required');
  if (!js) await expect(form.panel.getByRole('alert')).toContainText('Failed to create budget entry');

  await form.department.selectOption({ label: 'Product' });
  await form.category.selectOption({ label: 'Card Issuing' });
  await form.amount.fill('1234.56');
  await form.period.selectOption({ label: 'Quarterly' });
  await form.startDate.fill('2031-01-01');
  await form.endDate.fill('2031-03-31');
  await form.description.fill(`${tag} created through the form`);
  await form.create.click();

  await expect(toast(page)).toContainText('Budget entry created successfully');
  await expect(form.panel).toHaveCount(0);
  await expect(page).not.toHaveURL(/new=1/);
  expect(new URL(page.url()).searchParams.get('q'), 'the list keeps its search').toBe(tag);
  await expect(tableRows(page)).toHaveCount(1);
  await expect(tableRows(page).first().getByRole('cell')).toHaveText([
    'Vult',
    'Product',
    'Card Issuing',
    '$1,234.56',
    'Quarterly',
    '01/01/2031',
    '03/31/2031',
    'Active',
    '',
  ]);
  await expect(showing(page)).toHaveText('Showing 1 to 1 of 1 results');
});

test('edit: validation errors keep the form open with the entered values, then the fix is saved', async ({
  page,
  js,
}, testInfo) => {
  const tag = uniqueTag(testInfo, 'budget');
  const budget = await createBudget(page, {
    departmentId: ids.departments.Product,
    categoryId: ids.vult['Card Issuing'],
    amount: 500,
    period: 'quarterly',
    startDate: '2031-04-01',
    endDate: '2031-06-30',
    description: tag,
  });
  await page.goto(`${SCREEN}?q=${tag}`);
  await waitForHydration(page, js);
  await page.getByRole('link', { name: `Edit budget entry ${budget.id}` }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]edit=${budget.id}`));
  const form = budgetForm(page);
  await expect(form.panel.getByRole('heading', { name: 'Edit Budget Entry' })).toBeVisible();
  await expect(form.department).toHaveValue(String(ids.departments.Product));
  await expect(form.category).toHaveValue(String(ids.vult['Card Issuing']));
  await expect(form.amount).toHaveValue('500');
  await expect(form.period).toHaveValue('quarterly');
  // Days show in the reader's date format (MM/dd/yyyy by default).
  await expect(form.startDate).toHaveValue('04/01/2031');
  await expect(form.endDate).toHaveValue('06/30/2031');
  await expect(form.description).toHaveValue(tag);

  // An empty amount.
  await form.amount.fill('');
  await form.description.fill(`${tag} revised`);
  await submitInvalid(page, js, form.update);
  await expect(form.amount).toHaveAccessibleDescription('Amount is required');
  await expect(page.getByTestId(/-amount-error$/)).toHaveText('Amount is required');
  if (!js) await expect(form.panel.getByRole('alert')).toContainText('Failed to update budget entry');
  await expect(form.description).toHaveValue(`${tag} revised`);

  // An end date before the start date.
  await form.amount.fill('750.25');
  await form.endDate.fill('2031-03-01');
  await submitInvalid(page, js, form.update);
  await expect(form.endDate).toHaveAccessibleDescription('End date must be on or after the start date');
  await expect(page.getByTestId(/-endDate-error$/)).toHaveText('End date must be on or after the start date');
  await expect(page.getByTestId(/-amount-error$/)).toHaveCount(0);
  if (!js) await expect(form.panel.getByRole('alert')).toContainText('Failed to update budget entry');
  await expect(page).toHaveURL(new RegExp(`[?&]edit=${budget.id}`));
  await expect(form.amount).toHaveValue('750.25');
  await expect(form.endDate).toHaveValue('2031-03-01');
  await expect(form.description).toHaveValue(`${tag} revised`);

  await form.endDate.fill('2031-09-30');
  await form.update.click();
  await expect(toast(page)).toContainText('Budget entry updated successfully');
  await expect(form.panel).toHaveCount(0);
  await expect(tableRows(page)).toHaveCount(1);
  await expect(tableRows(page).first().getByRole('cell')).toHaveText([
    'Vult',
    'Product',
    'Card Issuing',
    '$750.25',
    'Quarterly',
    '04/01/2031',
    '09/30/2031',
    'Active',
    '',
  ]);

  // Cancel closes the form without saving.
  await page.getByRole('link', { name: `Edit budget entry ${budget.id}` }).click();
  await form.amount.fill('999');
  await form.cancel.click();
  await expect(form.panel).toHaveCount(0);
  await expect(page).not.toHaveURL(/edit=/);
  await expect(tableRows(page).first().getByRole('cell').nth(3)).toHaveText('$750.25');
});

test('search and the department filter narrow the list, and live in the URL', async ({ page, js }, testInfo) => {
  const tag = uniqueTag(testInfo, 'budget');
  const { Finance, Marketing } = ids.departments;
  const category = ids.vult['Audit & Accounting'];
  await Promise.all([
    createBudget(page, { departmentId: Finance, categoryId: category, amount: 111, description: `${tag} alpha` }),
    createBudget(page, { departmentId: Finance, categoryId: category, amount: 222, description: `${tag} beta` }),
    createBudget(page, {
      departmentId: Marketing,
      categoryId: ids.vult['Marketing Campaigns'],
      amount: 333,
      description: `${tag} gamma`,
    }),
  ]);
  await page.goto(SCREEN);
  await waitForHydration(page, js);

  await search(page, tag);
  await expect(showing(page)).toHaveText('Showing 1 to 3 of 3 results');
  await expect(tableRows(page)).toHaveCount(3);

  await search(page, `${tag} beta`);
  await expect(tableRows(page)).toHaveCount(1);
  await expect(tableRows(page).first()).toContainText('$222.00');

  await search(page, tag);
  await expect(tableRows(page)).toHaveCount(3);
  const filter = page.getByRole('search').getByRole('combobox', { name: 'Department' });
  await expect(filter.locator('option').first()).toHaveText('All Filters');
  await filter.selectOption({ label: 'Marketing' });
  if (!js) await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('departmentId')).toBe(String(Marketing));
  expect(new URL(page.url()).searchParams.get('q')).toBe(tag);
  await expect(tableRows(page)).toHaveCount(1);
  await expect(tableRows(page).first().getByRole('cell').nth(1)).toHaveText('Marketing');
  await expect(showing(page)).toHaveText('Showing 1 to 1 of 1 results');

  // The URL alone restores the state.
  await page.goto(`${SCREEN}?q=${tag}&departmentId=${Finance}`);
  await expect(page.getByRole('searchbox')).toHaveValue(tag);
  await expect(filter).toHaveValue(String(Finance));
  await expect(tableRows(page)).toHaveCount(2);
  await waitForHydration(page, js);

  await filter.selectOption({ label: 'All Filters' });
  if (!js) await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect(tableRows(page)).toHaveCount(3);
  await expect.poll(() => new URL(page.url()).searchParams.get('departmentId') ?? '').toBe('');
});

test('pagination: 10 rows a page, Next/Previous and page links, sorting kept across pages', async ({
  page,
  js,
}, testInfo) => {
  const tag = uniqueTag(testInfo, 'budget');
  const amounts = Array.from({ length: 12 }, (_, i) => 101 + i);
  await Promise.all(
    amounts.map((amount) =>
      createBudget(page, {
        departmentId: ids.departments.Compliance,
        categoryId: ids.vult['Fraud Prevention'],
        amount,
        description: `${tag} row ${amount}`,
      }),
    ),
  );
  await page.goto(`${SCREEN}?q=${tag}`);
  await waitForHydration(page, js);
  const pagination = page.getByRole('navigation', { name: 'Pagination' });
  await expect(showing(page)).toHaveText('Showing 1 to 10 of 12 results');
  await expect(tableRows(page)).toHaveCount(10);
  await expect(pagination.getByRole('link', { name: 'Previous' })).toHaveCount(0);
  await expect(pagination.getByText('Previous')).toBeVisible();
  await expect(pagination.getByRole('link', { name: '1', exact: true })).toHaveAttribute('aria-current', 'page');
  await markDocument(page, js);

  await pagination.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(showing(page)).toHaveText('Showing 11 to 12 of 12 results');
  await expect(tableRows(page)).toHaveCount(2);
  await expect(pagination.getByRole('link', { name: '2', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(pagination.getByRole('link', { name: 'Next' })).toHaveCount(0);

  await pagination.getByRole('link', { name: 'Previous' }).click();
  await expect(showing(page)).toHaveText('Showing 1 to 10 of 12 results');

  // Sort by amount (ascending), then the page links keep the sort.
  await page
    .getByRole('columnheader', { name: /Amount/ })
    .getByRole('link')
    .click();
  await expect(page).toHaveURL(/[?&]sort=amount/);
  await expect(tableRows(page).first().getByRole('cell').nth(3)).toHaveText('$101.00');
  await pagination.getByRole('link', { name: '2', exact: true }).click();
  await expect(showing(page)).toHaveText('Showing 11 to 12 of 12 results');
  await expect(tableRows(page).first().getByRole('cell').nth(3)).toHaveText('$111.00');
  await expect(tableRows(page).nth(1).getByRole('cell').nth(3)).toHaveText('$112.00');
  expect(new URL(page.url()).searchParams.get('q')).toBe(tag);
  // With JavaScript, paging and sorting stayed in the page (AppLinks to queries of this page).
  await expectSameDocument(page, js);

  // A search that fits on one page shows no page buttons.
  await search(page, `${tag} row 105`);
  await expect(showing(page)).toHaveText('Showing 1 to 1 of 1 results');
  await expect(pagination.getByRole('link')).toHaveCount(0);
});

test('delete asks for confirmation; cancelling keeps the row', async ({ page, js }, testInfo) => {
  const tag = uniqueTag(testInfo, 'budget');
  const [first, second] = await Promise.all([
    createBudget(page, {
      departmentId: ids.departments.Compliance,
      categoryId: ids.vult['KYC Verification'],
      amount: 41,
      description: tag,
    }),
    createBudget(page, {
      departmentId: ids.departments.Compliance,
      categoryId: ids.vult['KYC Verification'],
      amount: 42,
      description: tag,
    }),
  ]);
  await page.goto(`${SCREEN}?q=${tag}`);
  await waitForHydration(page, js);
  await expect(tableRows(page)).toHaveCount(2);
  const message = 'Are you sure you want to delete this budget entry?';
  const posts = recordPosts(page);

  await confirmDelete(page, js, page.getByRole('button', { name: `Delete budget entry ${first.id}` }), message, false);
  if (js) expect(posts, 'a cancelled confirm() sends nothing').toEqual([]);
  await expect(tableRows(page)).toHaveCount(2);
  await expect(page.getByRole('button', { name: `Delete budget entry ${first.id}` })).toBeVisible();

  await confirmDelete(page, js, page.getByRole('button', { name: `Delete budget entry ${first.id}` }), message, true);
  await expect(toast(page)).toContainText('Budget entry deleted successfully');
  await expect(tableRows(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: `Delete budget entry ${first.id}` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Delete budget entry ${second.id}` })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('q'), 'the list keeps its search').toBe(tag);

  const gone = await page.request.get(`/api/budgets/${first.id}`);
  expect(gone.status()).toBe(404);
});

test('Export Data downloads the filtered rows as CSV', async ({ page, js }, testInfo) => {
  const tag = uniqueTag(testInfo, 'budget');
  const { Finance, Marketing } = ids.departments;
  const category = ids.vult['Audit & Accounting'];
  const [a, b] = await Promise.all([
    createBudget(page, {
      departmentId: Finance,
      categoryId: category,
      amount: 10.5,
      period: 'annual',
      startDate: '2032-01-01',
      endDate: '2032-12-31',
      description: `${tag}, first`,
    }),
    createBudget(page, {
      departmentId: Finance,
      categoryId: category,
      amount: 20,
      status: 'pending',
      description: `${tag} "second"`,
    }),
    createBudget(page, {
      departmentId: Marketing,
      categoryId: ids.vult['Marketing Campaigns'],
      amount: 30,
      description: tag,
    }),
  ]);
  await page.goto(`${SCREEN}?q=${tag}&departmentId=${Finance}&page=1`);
  await waitForHydration(page, js);
  await expect(tableRows(page)).toHaveCount(2);

  const link = page.getByRole('link', { name: 'Export Data' });
  await expect(link).toHaveAttribute('href', `/export/budgets?q=${tag}&departmentId=${Finance}`);
  const { filename, text } = await download(page, link);
  expect(filename).toMatch(/^budgets-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...records] = parseCsv(text);
  expect(header).toEqual([
    'ID',
    'Company',
    'Department',
    'Category',
    'Amount',
    'Period',
    'Start Date',
    'End Date',
    'Status',
    'Description',
    'Created At',
    'Updated At',
  ]);
  expect(records).toHaveLength(2);
  const byId = Object.fromEntries(records.map((r) => [Number(r[0]), r]));
  expect(Object.keys(byId).map(Number).sort()).toEqual([a.id, b.id].sort());
  expect(byId[a.id].slice(1, 10)).toEqual([
    'Vult',
    'Finance',
    'Audit & Accounting',
    '10.50',
    'annual',
    '2032-01-01',
    '2032-12-31',
    'active',
    `${tag}, first`,
  ]);
  expect(byId[b.id].slice(1, 10)).toEqual([
    'Vult',
    'Finance',
    'Audit & Accounting',
    '20.00',
    'monthly',
    '2031-01-01',
    '2031-01-31',
    'pending',
    `${tag} "second"`,
  ]);
  // Downloading did not leave the page.
  await expect(page).toHaveURL(new RegExp(`\\?q=${tag}&departmentId=${Finance}&page=1$`));
});
