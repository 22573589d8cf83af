// Audit Trail (docs/writes.md, docs/screens.md): search the entries, open a record's version
// history from its entry, and restore an older version after the confirmation (the browser's
// confirm() with JavaScript, the server's confirmation step without).
// Both projects share one database: every test writes with a change reason carrying its own
// tag and searches for it, so it only ever sees its own entries.
import type { Page } from '@playwright/test';
import { COMPANY, expect, test } from './support/fixtures.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import { apiGet, toast, uniqueTag } from './support/resources.ts';
import { E2E_BASE_URL } from './support/constants.ts';

/** A write through the JSON API with a change reason (what the search box finds). */
async function write(page: Page, method: 'post' | 'put', path: string, data: unknown, reason: string) {
  const response = await page.request[method](path, {
    data,
    headers: { Origin: E2E_BASE_URL, 'X-Change-Reason': reason },
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

test.beforeEach(async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
});

test('search the entries, open the history and restore an older version', async ({ page, js }, testInfo) => {
  const tag = uniqueTag(testInfo, 'audit');
  // A revenue projection of Spark Marketing: no other test counts them (shared departments and
  // categories are counted elsewhere).
  const projection = {
    companyId: COMPANY.spark,
    source: 'Retainers',
    amount: 100,
    period: 'monthly',
    startDate: '2031-02-01',
    endDate: '2031-02-28',
  };
  const { id } = await write(
    page,
    'post',
    '/api/revenue-projections',
    { ...projection, description: `${tag} original` },
    `${tag} created`,
  );
  await write(
    page,
    'put',
    `/api/revenue-projections/${id}`,
    { description: `${tag} changed`, amount: 1234.5, endDate: '2031-03-15' },
    `${tag} renamed`,
  );

  await page.goto('/audit-trail');
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Audit Trail');
  await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(tag);
  const entries = page.getByTestId('audit-entry');
  await expect(entries).toHaveCount(2);
  // Newest first: the rename, with its changes in the form's words: labels, money, dates.
  await expect(entries.first()).toContainText(`Reason: ${tag} renamed`);
  await expect(entries.first().getByTestId('change')).toHaveText([
    'Amount: $100.00 → $1,234.50',
    'End Date: 02/28/2031 → 03/15/2031',
    `Description: ${tag} original → ${tag} changed`,
  ]);
  await expect(entries.nth(1)).toContainText(`Record #${id}`);
  // The company by its name, not its id.
  await expect(entries.nth(1).getByTestId('change').first()).toHaveText('Company: — → Spark Marketing');

  await entries
    .first()
    .getByRole('link', { name: /^History/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`tab=versions&tableName=revenue_projections&recordId=${id}`));
  const versions = page.getByTestId('version');
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText('Version 2');
  await expect(versions.first()).toContainText('Current');
  await expect(versions.nth(1).getByTestId('version-diff')).toContainText(`${tag} original`);
  await expect(
    versions
      .nth(1)
      .getByTestId('version-diff')
      .getByRole('row', { name: /^Amount/ }),
  ).toHaveText(/Amount\s*\$100\.00\s*\$1,234\.50/);
  await expect(versions.first().getByTestId('version-fields')).toContainText('CompanySpark Marketing');
  await expect(versions.first().getByTestId('version-fields')).toContainText('Amount$1,234.50');

  const restore = page.getByRole('button', { name: 'Restore version 1' });
  const message = 'Restore version 1 of this record?';
  if (js) {
    // Cancelled first: nothing happens; then accepted.
    page.once('dialog', (d) => void d.dismiss());
    await restore.click();
    await expect(versions).toHaveCount(2);
    const dialog = page.waitForEvent('dialog');
    const click = restore.click();
    const d = await dialog;
    expect(d.message()).toBe(message);
    await d.accept();
    await click;
  } else {
    await restore.click();
    const step = page.getByTestId('confirm-restore');
    await expect(step).toContainText(message);
    await step.getByRole('link', { name: 'Cancel' }).click();
    await expect(step).toHaveCount(0);
    await expect(versions).toHaveCount(2);
    await restore.click();
    await page.getByTestId('confirm-restore').getByRole('button', { name: 'Confirm' }).click();
  }
  await expect(toast(page)).toContainText('Version 1 restored');
  await expect(versions).toHaveCount(3);
  await expect(versions.first()).toContainText('Version 3');
  await expect(versions.first().getByTestId('version-data')).toContainText(`"description": "${tag} original"`);
  expect((await apiGet(page, `/api/revenue-projections/${id}`)).description).toBe(`${tag} original`);
});

test('a search that matches nothing says so, and Clear drops the filters', async ({ page, js }, testInfo) => {
  const tag = uniqueTag(testInfo, 'none');
  await page.goto(`/audit-trail?q=${tag}`);
  await waitForHydration(page, js);
  await expect(page.getByText('No audit logs found')).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(tag);
  await page.getByRole('link', { name: 'Clear' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBeNull();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
  await page.getByRole('link', { name: 'Data Versions' }).click();
  await expect(page.getByText('Select a table and record ID to view version history')).toBeVisible();
});
