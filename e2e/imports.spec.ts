// CSV import in the browser, with JavaScript on and off: Import Data beside Export Data, the
// upload, the check (columns matched by the export's headers, a column chosen again, the first
// rows, the invalid rows with their lines and the form's messages), Import all refused while a
// row is invalid, Import valid rows, the outcome and the refused rows download, and the rows in
// the list afterwards. A viewer is offered no import.
import { expect, test } from './support/fixtures.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import { search, tableRows, uniqueTag } from './support/resources.ts';

test('an admin imports revenue from a CSV file: check, choose a column, import the valid rows', async ({
  page,
  js,
  createUser,
}, testInfo) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
  const tag = uniqueTag(testInfo, 'import');
  await page.goto('/actual-revenue');
  await waitForHydration(page, js);
  await page.getByRole('link', { name: 'Import Data' }).click();
  await expect(page).toHaveURL(/\/imports\?table=actual-revenues$/);
  await expect(page.getByRole('heading', { name: 'Import into Actual Revenue' })).toBeVisible();
  await waitForHydration(page, js);

  const file = [
    'Company,Where from,Amount,Revenue Date,Description',
    `Vult,${tag},1250.50,2026-04-01,First`,
    `Vult,${tag},-3,2026-04-02,Refused`,
    `Vult,${tag},"2,000.00",2026-04-03,Third`,
  ].join('\r\n');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: `${tag}.csv`, mimeType: 'text/csv', buffer: Buffer.from(file) });
  await page.getByRole('button', { name: 'Upload and check' }).click();

  await expect(page.getByTestId('import-status')).toContainText('Checked');
  await waitForHydration(page, js);
  // 'Where from' matches no field: every row misses its source until the column is chosen.
  await expect(page.getByTestId('import-errors')).toContainText('Source is required');
  await page.getByLabel('Source *').selectOption({ label: 'Where from' });
  await page.getByRole('button', { name: 'Check again with these columns' }).click();

  await expect(page.getByTestId('import-status')).toContainText('2 of 3 rows are valid, 1 invalid');
  await expect(page.getByTestId('import-errors')).toContainText('Amount must be a positive number');
  await expect(page.getByTestId('import-errors').getByRole('cell', { name: '3', exact: true })).toBeVisible();
  await expect(page.getByTestId('import-preview')).toContainText('1250.5');
  await expect(page.getByTestId('import-preview')).toContainText('2000');
  await expect(page.getByRole('button', { name: 'Import all' })).toBeDisabled();

  await page.getByRole('button', { name: 'Import valid rows' }).click();
  await expect(page.getByTestId('import-status')).toContainText('Imported');
  await expect(page.getByTestId('import-status')).toContainText('2 rows added, 1 refused');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download the refused rows (CSV)' }).click();
  const refused = await download;
  expect(refused.suggestedFilename()).toMatch(/^import-\d+-refused-rows\.csv$/);

  await page.goto('/actual-revenue');
  await waitForHydration(page, js);
  await search(page, tag);
  await expect(tableRows(page)).toHaveCount(2);
});

test('a viewer is offered no import, and the import page refuses them', async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'viewer' }));
  await page.goto('/actual-revenue');
  await expect(page.getByRole('link', { name: 'Export Data' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Import Data' })).toHaveCount(0);
  const response = await page.goto('/imports?table=actual-revenues');
  expect(response?.status()).toBe(403);
});
