// One Network Data: the tabs in the URL, a record added, edited and deleted
// through the form (a dialog with JavaScript, a panel without) with the documented toasts,
// the network form's defaults and choices, its validation messages and the delete confirmation.
// Each project works on an access method of its own, filtered in the URL, so the two projects
// never see each other's rows in the shared database.
import { expect, test } from './support/fixtures.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import { confirmDelete, formPanel, showing, tableRows, toast } from './support/resources.ts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

test.beforeEach(async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
});

test('tabs switch between broadband, mobile subscriptions and mobile access', async ({ page }) => {
  await page.goto('/one-network-data');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('One Network Data');
  const tabs = page.getByRole('navigation', { name: 'One Network data' }).getByRole('link');
  await expect(tabs).toHaveText(['Broadband', 'Mobile Subscriptions', 'Mobile Access']);
  await expect(tabs.first()).toHaveAttribute('aria-current', 'page');
  await tabs.filter({ hasText: 'Mobile Access' }).click();
  await expect(page).toHaveURL(/tab=mobile-access/);
  await expect(page.getByRole('link', { name: 'Add Mobile Access Method' })).toBeVisible();
  for (const header of ['Type', 'Year', 'Month', 'Devices', 'Revenue', 'Churn Rate']) {
    await expect(page.getByRole('columnheader', { name: header })).toBeVisible();
  }
});

test('a record is added, edited and deleted through the form, with the documented messages', async ({
  page,
  js,
}, testInfo) => {
  const method =
    testInfo.project.name === 'js' ? { value: 'esim', label: 'eSIM' } : { value: 'fwa_mobile', label: 'FWA Mobile' };
  const list = `/one-network-data?tab=mobile-access&accessMethod=${method.value}`;
  await page.goto(list);
  await waitForHydration(page, js);
  await expect(tableRows(page)).toHaveCount(0);

  await page.getByRole('link', { name: 'Add Mobile Access Method' }).click();
  const panel = formPanel(page);
  await expect(panel.getByRole('heading', { name: 'Add Mobile Access Method' })).toBeVisible();
  // Defaults: this year and month, numbers at 0; years are this one and the nine before.
  const now = new Date();
  await expect(panel.getByLabel('Year', { exact: true })).toHaveValue(String(now.getUTCFullYear()));
  await expect(panel.getByLabel('Month', { exact: true })).toHaveValue(String(now.getUTCMonth() + 1));
  await expect(panel.getByLabel('Active Devices', { exact: true })).toHaveValue('0');
  await expect(panel.getByLabel('Month', { exact: true }).locator('option')).toHaveText(MONTHS);
  await expect(panel.getByLabel('Year', { exact: true }).locator('option').first()).toHaveText(
    String(now.getUTCFullYear()),
  );

  await panel.getByLabel('Month', { exact: true }).selectOption({ label: 'March' });
  await panel.getByLabel('Access Method', { exact: true }).selectOption({ label: method.label });
  // The share of the month's total is computed from the counts: the form never asks for it.
  await expect(panel.getByLabel('Percentage of Total')).toHaveCount(0);
  await panel.getByLabel('Active Devices', { exact: true }).fill('-2500');
  await panel.getByRole('button', { name: 'Create' }).click();
  // Refused in the browser with JavaScript, by the server without: the same message.
  await expect(panel.getByText('Active Devices must be a whole number of 0 or more')).toBeVisible();
  await panel.getByLabel('Active Devices', { exact: true }).fill('2500');
  await panel.getByLabel('Revenue', { exact: true }).fill('1500');
  await panel.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('Mobile access method created successfully');
  await expect(formPanel(page)).toHaveCount(0);
  await expect(tableRows(page)).toHaveCount(1);
  const row = tableRows(page).first();
  await expect(row).toContainText(method.label);
  await expect(row).toContainText('March');
  await expect(row).toContainText('2,500');
  await expect(row).toContainText('$1,500.00');
  await expect(showing(page)).toHaveText('Showing 1 to 1 of 1 results');

  const id = Number(
    new URL(
      (await row.getByRole('link', { name: /^Edit mobile access method/ }).getAttribute('href'))!,
      page.url(),
    ).searchParams.get('edit'),
  );
  await row.getByRole('link', { name: `Edit mobile access method ${id}` }).click();
  await expect(panel.getByRole('heading', { name: 'Edit Mobile Access Method' })).toBeVisible();
  await expect(panel.getByLabel('Active Devices', { exact: true })).toHaveValue('2500');
  await panel.getByLabel('Active Devices', { exact: true }).fill('-1');
  await panel.getByRole('button', { name: 'Update' }).click();
  await expect(panel.getByText('Active Devices must be a whole number of 0 or more')).toBeVisible();
  await panel.getByLabel('Active Devices', { exact: true }).fill('2600');
  await panel.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page)).toContainText('Mobile access method updated successfully');
  await expect(tableRows(page).first()).toContainText('2,600');

  await confirmDelete(
    page,
    js,
    page.getByRole('button', { name: `Delete mobile access method ${id}` }),
    'Are you sure you want to delete this record?',
    true,
  );
  await expect(toast(page)).toContainText('Record deleted successfully');
  await expect(tableRows(page)).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get('tab')).toBe('mobile-access');
});
