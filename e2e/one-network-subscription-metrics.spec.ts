// One Network Subscriptions (the network subscription metrics): the overview cards
// and chart of a chosen month, the broadband record's edit dialog (a panel without JavaScript)
// with a field error and the saved value (its total and shares computed from the counts), and
// adding a record to an empty month.
// Both projects share one database and a record is unique per month: each project works in a
// year of its own and each test in a month of its own, removed before and after the test.
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { postVia, signInByApi, waitForHydration } from './support/app.ts';
import { apiGet, apiPost, formPanel, toast } from './support/resources.ts';
import { E2E_BASE_URL } from './support/constants.ts';

const SCREEN = '/one-network-subscription-metrics';
const API = {
  broadband: '/api/one-network/broadband-connections',
  mobile: '/api/one-network/mobile-subscription-patterns',
  access: '/api/one-network/mobile-access-methods',
};

const yearOf = (testInfo: TestInfo) => (testInfo.project.name === 'js' ? 2021 : 2022);

/** Removes the records of this month (left by an interrupted run, or made by the test). */
async function clearMonth(page: Page, year: number, month: number) {
  for (const path of Object.values(API)) {
    for (const row of await apiGet<{ id: number }[]>(page, `${path}?year=${year}&month=${month}`)) {
      const response = await page.request.delete(`${path}/${row.id}`, { headers: { Origin: E2E_BASE_URL } });
      expect(response.status(), `DELETE ${path}/${row.id}`).toBe(204);
    }
  }
}

function broadband(year: number, month: number) {
  return {
    year,
    month,
    fixedBroadband: 2000,
    fixedBroadbandNew: 30,
    fixedBroadbandChurn: 10,
    fixedFiber: 0,
    fixedFiberNew: 0,
    fixedFiberChurn: 0,
    fixedFwa5gRouter: 500,
    fixedFwa5gRouterNew: 12,
    fixedFwa5gRouterChurn: 3,
  };
}

let month: { year: number; month: number };

test.beforeEach(async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
});

test.afterEach(async ({ page }) => {
  if (month) await clearMonth(page, month.year, month.month);
});

test('overview: the month picker, the three cards and the chart', async ({ page, js }, testInfo) => {
  month = { year: yearOf(testInfo), month: 1 };
  await clearMonth(page, month.year, month.month);
  // Totals and shares are computed from these counts.
  await apiPost(page, API.broadband, {
    ...broadband(month.year, 1),
    fixedBroadband: 2956,
    fixedBroadbandNew: 59,
    fixedBroadbandChurn: 26,
  });
  await apiPost(page, API.mobile, {
    year: month.year,
    month: 1,
    ...Object.fromEntries(
      ['daily', 'weekly', 'monthly'].flatMap((c) => [
        [`${c}Subscriptions`, 30],
        [`${c}New`, 2],
        [`${c}Churn`, 1],
      ]),
    ),
  });
  await apiPost(page, API.access, {
    year: month.year,
    month: 1,
    mifiDevices: 698,
    simCards: 102,
    eSim: 0,
    fwaMobile: 0,
  });

  await page.goto(SCREEN);
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('One Network Subscriptions');
  await expect(
    page.getByRole('navigation', { name: 'Subscription metrics' }).getByRole('link', { name: 'Overview' }),
  ).toHaveAttribute('aria-current', 'page');
  // The GET form chooses the month (a client navigation with JS, a page load without).
  const picker = page.getByRole('form', { name: 'Month shown' });
  await picker.getByLabel('Year').selectOption(String(month.year));
  await picker.getByLabel('Month').selectOption({ label: 'January' });
  await picker.getByRole('button', { name: 'Show' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('year')).toBe(String(month.year));
  expect(new URL(page.url()).searchParams.get('month')).toBe('1');
  await expect(page.getByTestId('period')).toContainText(`Showing January ${month.year}`);

  const cards = page.getByTestId('overview-cards');
  await expect(cards).toContainText('Total Broadband Connections');
  await expect(cards).toContainText('3,456');
  await expect(cards).toContainText('New: 71');
  await expect(cards).toContainText('Churn: 29');
  await expect(cards).toContainText('Total Mobile Subscriptions');
  await expect(cards).toContainText('90');
  await expect(cards).toContainText('All billing cycles: Daily + Weekly + Monthly');
  await expect(cards).toContainText('MiFi Device Dominance');
  await expect(cards).toContainText('87.25%');

  const chart = page.getByRole('img', { name: 'Total broadband connections, last 12 recorded months' });
  await expect(chart).toBeVisible();
  expect(await chart.locator('circle').count()).toBeGreaterThan(0);
  await expect(page.getByRole('img', { name: 'Total mobile subscriptions, last 12 recorded months' })).toBeVisible();
});

test('edit the broadband record: a dialog (a panel without JS), a field error, then the saved value', async ({
  page,
  js,
}, testInfo) => {
  month = { year: yearOf(testInfo), month: 2 };
  await clearMonth(page, month.year, month.month);
  const record = await apiPost<{ id: number; companyId: number }>(page, API.broadband, broadband(month.year, 2));
  const list = `${SCREEN}?tab=broadband&year=${month.year}&month=2`;
  await page.goto(list);
  await waitForHydration(page, js);
  const rows = page.getByTestId('breakdown-row');
  await expect(rows.first()).toContainText('Fixed Broadband');
  await expect(rows.first()).toContainText('2,000');
  await expect(rows.first()).toContainText('80.00%');
  await expect(rows.nth(1)).toContainText('Fixed FWA 5G Router');

  const edit = page.getByRole('link', { name: 'Edit', exact: true });
  await edit.click();
  await expect(page).toHaveURL(new RegExp(`[?&]edit=${record.id}`));
  const panel = formPanel(page);
  await expect(panel.getByRole('heading', { name: 'Edit Broadband Connection Record' })).toBeVisible();
  if (js) {
    // A modal dialog: Escape closes it (back to the list URL), the Edit button opens it again.
    await expect(
      page.getByRole('dialog', { name: 'Edit Broadband Connection Record' }).getByTestId('form-panel'),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(page).not.toHaveURL(/edit=/);
    await edit.click();
    await expect(panel).toBeVisible();
  } else {
    // Without JavaScript the form is a panel on the page.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Edit Broadband Connection Record' })).toBeVisible();
  }
  // Counts only: the total and the shares are computed, never typed.
  const fixed = panel.getByLabel('Fixed Broadband', { exact: true });
  await expect(fixed).toHaveValue('2000');
  await expect(panel.getByLabel('Total Broadband')).toHaveCount(0);
  await expect(panel.getByLabel('Fixed Broadband %')).toHaveCount(0);

  await fixed.fill('-1');
  const update = panel.getByRole('button', { name: 'Update' });
  if (js) await update.click();
  else expect((await postVia(page, SCREEN, update)).status()).toBe(400);
  await expect(fixed).toHaveAccessibleDescription('Fixed Broadband must be a whole number of 0 or more');
  if (!js) await expect(panel.getByRole('alert')).toContainText('Failed to update broadband connection record');

  await fixed.fill('1500');
  await update.click();
  await expect(toast(page)).toContainText('Broadband connection record updated successfully');
  await expect(panel).toHaveCount(0);
  await expect(page).not.toHaveURL(/edit=/);
  // 1,500 + 500: the total and both shares follow the part.
  await expect(page.getByTestId('record-summary')).toContainText('2,000');
  await expect(rows.first()).toContainText('75.00%');
  await expect(rows.nth(1)).toContainText('25.00%');
  // The same row on One Network Data.
  const stored = await apiGet<{ activeConnections: number; percentageOfTotal: number }[]>(
    page,
    `/api/broadband-connections?companyId=${record.companyId}&year=${month.year}&month=2&connectionType=fixed_broadband`,
  );
  expect(stored.map((r) => [r.activeConnections, r.percentageOfTotal])).toEqual([[1500, 75]]);
});

test('an empty month says so and offers Add record, which creates the month', async ({ page, js }, testInfo) => {
  month = { year: yearOf(testInfo), month: 4 };
  await clearMonth(page, month.year, month.month);
  await page.goto(`${SCREEN}?tab=access&year=${month.year}&month=4`);
  await waitForHydration(page, js);
  await expect(page.getByTestId('empty-state')).toContainText(`No mobile access record for April ${month.year}.`);
  await expect(page.getByText('679')).toHaveCount(0);
  await page.getByRole('link', { name: 'Add record' }).click();
  const panel = formPanel(page);
  await expect(panel.getByRole('heading', { name: 'Add Mobile Access Method' })).toBeVisible();
  await panel.getByLabel('Year', { exact: true }).selectOption(String(month.year));
  await panel.getByLabel('Month', { exact: true }).selectOption({ label: 'April' });
  await panel.getByLabel('MiFi Devices', { exact: true }).fill('777');
  await panel.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('Mobile access method created successfully');
  await expect(panel).toHaveCount(0);
  const mifi = page.getByTestId('breakdown-row').filter({ hasText: 'MiFi Devices' });
  await expect(mifi).toContainText('777');
  await expect(mifi).toContainText('100.00%');
});
