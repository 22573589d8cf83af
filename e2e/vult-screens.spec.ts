// The Vult screens (the fintech data warehouse and subscriber metrics, with their messages):
// adding a subscriber level with the add form (a field error first), then a chosen month of the
// subscriber metrics (card penetration, the chart) and a card type edited in its dialog (a
// panel without JavaScript).
// Both projects share one database and a row is unique per company, month and level or card
// type: each project works in a year of its own and each test in months of its own, removed
// before and after the test.
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { postVia, signInByApi, waitForHydration } from './support/app.ts';
import { apiGet, apiPost, formPanel, toast } from './support/resources.ts';
import { E2E_BASE_URL } from './support/constants.ts';

const SERVICES = '/vult-financial-services';
const METRICS = '/vult-subscriber-metrics';
const API = {
  metrics: '/api/vult-subscriber-metrics',
  levels: '/api/vult-subscriber-levels',
  cards: '/api/vult-card-types',
};

const yearOf = (testInfo: TestInfo) => (testInfo.project.name === 'js' ? 2023 : 2024);

/** Removes Vult's rows of these months (left by an interrupted run, or made by the test). */
async function clearMonths(page: Page, year: number, months: number[]) {
  for (const path of Object.values(API)) {
    for (const month of months) {
      for (const row of await apiGet<{ id: number }[]>(page, `${path}?companyId=2&year=${year}&month=${month}`)) {
        const response = await page.request.delete(`${path}/${row.id}`, { headers: { Origin: E2E_BASE_URL } });
        expect(response.status(), `DELETE ${path}/${row.id}`).toBe(204);
      }
    }
  }
}

let cleanup: { year: number; months: number[] } | null = null;

test.beforeEach(async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
});

test.afterEach(async ({ page }) => {
  if (cleanup) await clearMonths(page, cleanup.year, cleanup.months);
  cleanup = null;
});

test('a subscriber level added with the form on Vult Financial Services', async ({ page, js }, testInfo) => {
  const year = yearOf(testInfo);
  cleanup = { year, months: [3] };
  await clearMonths(page, year, [3]);

  await page.goto(SERVICES);
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vult Financial Services');
  await expect(page.getByRole('heading', { name: 'Latest Metrics' })).toBeVisible();
  await expect(page.getByTestId('endpoints')).toContainText('/api/vult/subscriber-levels');

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Subscriber Levels' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('levels');
  const form = page.locator('section', { has: page.getByRole('heading', { name: 'Add Subscriber Level' }) });
  await expect(form.getByTestId('fixed-companyId')).toHaveText('Vult');
  await form.getByLabel('Year', { exact: true }).selectOption(String(year));
  await form.getByLabel('Month', { exact: true }).selectOption({ label: 'March' });
  await form.getByLabel('Level', { exact: true }).selectOption({ label: 'Card Ready' });
  await form.getByLabel('Subscriber Count', { exact: true }).fill('4321');
  const percentage = form.getByLabel('Percentage of Total', { exact: true });
  await percentage.fill('101');
  const tag = `Level e2e ${testInfo.project.name}`;
  await form.getByLabel('Description', { exact: true }).fill(tag);

  // Checked in the browser with JavaScript; by the server (400) without.
  const create = form.getByRole('button', { name: 'Create' });
  if (js) await create.click();
  else expect((await postVia(page, SERVICES, create)).status()).toBe(400);
  await expect(percentage).toHaveAccessibleDescription('Percentage of Total must be between 0 and 100');
  if (!js) await expect(form.getByRole('alert')).toContainText('Failed to create vult subscriber level');
  await expect(form.getByLabel('Description', { exact: true })).toHaveValue(tag);

  await percentage.fill('43.21');
  await create.click();
  await expect(toast(page)).toContainText('Subscriber level added successfully');
  const recent = page
    .getByTestId('recent-row')
    .filter({ hasText: `Mar ${year}` })
    .filter({ hasText: String(year) })
    .filter({ hasText: 'Card Ready' });
  await expect(recent).toHaveCount(1);
  await expect(recent).toContainText('4,321');
  await expect(recent).toContainText('43.21%');
  // The form starts afresh for the next row.
  await expect(form.getByLabel('Description', { exact: true })).toHaveValue('');
  const saved = await apiGet<{ companyId: number; description: string }[]>(page, `${API.levels}?year=${year}&month=3`);
  expect(saved.map((r) => [r.companyId, r.description])).toEqual([[2, tag]]);
});

test('Vult Subscriber Metrics of a chosen month: penetration, chart, and a card type edited', async ({
  page,
  js,
}, testInfo) => {
  const year = yearOf(testInfo);
  cleanup = { year, months: [4, 5] };
  await clearMonths(page, year, [4, 5]);
  await apiPost(page, API.metrics, {
    companyId: 2,
    year,
    month: 4,
    totalSubscribers: 18000,
    cardHolders: 4000,
    cardAdoptionRate: 22.22,
    retentionRate: 90,
    conversionRate: 9.5,
  });
  await apiPost(page, API.metrics, {
    companyId: 2,
    year,
    month: 5,
    totalSubscribers: 20000,
    cardHolders: 5000,
    cardAdoptionRate: 25,
    retentionRate: 90.5,
    conversionRate: 10,
  });
  const card = await apiPost<{ id: number }>(page, API.cards, {
    companyId: 2,
    year,
    month: 5,
    cardType: 'platinum',
    cardCount: 2500,
    percentageOfCards: 50,
    percentageOfUsers: 12.5,
  });

  await page.goto(METRICS);
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vult Subscriber Metrics');
  const picker = page.getByRole('form', { name: 'Choose a month' });
  await picker.getByLabel('Year').selectOption(String(year));
  await picker.getByLabel('Month').selectOption({ label: 'May' });
  await picker.getByRole('button', { name: 'Show' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('year')).toBe(String(year));
  expect(new URL(page.url()).searchParams.get('month')).toBe('5');

  await expect(page.getByRole('heading', { name: `May ${year}` })).toBeVisible();
  await expect(page.getByTestId('card-penetration')).toHaveText('5,000 out of 20,000 subscribers have cards');
  await expect(page.getByTestId('figure-cardAdoptionRate')).toContainText('25.00%');
  await expect(page.getByTestId('figure-retentionRate')).toContainText('90.50%');
  const chart = page.getByRole('img', { name: `Subscribers and card holders, Jun ${year - 1} to May ${year}` });
  await expect(chart).toBeVisible();
  await expect(chart.locator('circle')).toHaveCount(4);

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Card Types' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('cards');
  expect(new URL(page.url()).searchParams.get('month'), 'the tab keeps the month').toBe('5');
  const row = page.getByTestId('card-type-row').filter({ hasText: 'Platinum' });
  await expect(row.getByRole('cell')).toHaveText(['2,500', '50.00%', '12.50%', 'Edit']);

  await row.getByRole('link', { name: 'Edit Platinum' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]edit=${card.id}`));
  const panel = formPanel(page);
  await expect(panel.getByRole('heading', { name: 'Edit Card Type' })).toBeVisible();
  await expect(panel.getByTestId('fixed-companyId')).toHaveText('Vult');
  await expect(panel.getByLabel('Card Count', { exact: true })).toHaveValue('2500');
  await panel.getByLabel('Card Count', { exact: true }).fill('3000');
  await panel.getByLabel('% of Cards', { exact: true }).fill('60');
  await panel.getByLabel('% of Users', { exact: true }).fill('15');
  await panel.getByRole('button', { name: 'Update' }).click();

  await expect(toast(page)).toContainText('Card type updated successfully');
  await expect(panel).toHaveCount(0);
  await expect(page).not.toHaveURL(/edit=/);
  await expect(row.getByRole('cell')).toHaveText(['3,000', '60.00%', '15.00%', 'Edit']);
});
