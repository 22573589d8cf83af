// The dashboard in a real browser, with and without JavaScript: an admin's
// four tiles leading to their screens, the lists and the two charts with their numbers; a
// viewer limited to one company sees only the access card and that company's charts; with
// JavaScript the figures refresh by themselves every 30 s (the page clock is run forward).
import { signInByApi, waitForHydration } from './support/app.ts';
import { expect, test } from './support/fixtures.ts';
import { COMPANY } from './support/fixtures.ts';

test('an admin: the four tiles lead to their screens; lists and charts', async ({ page, js, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
  await page.goto('/');
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByTestId('last-updated')).toBeVisible();
  for (const [tile, path] of [
    ['tile-active-users', '/user-management'],
    ['tile-api-success', '/api-integrations'],
    ['tile-system-health', '/system-monitoring'],
    ['tile-last-backup', '/backup-recovery'],
  ] as const) {
    await expect(page.getByTestId(tile)).toHaveAttribute('href', new RegExp(`^${path}`));
  }
  await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();
  await expect(page.getByTestId('recent-activity').getByRole('listitem').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'API Integration Activity' })).toBeVisible();
  const budget = page.getByRole('img', { name: /Budget and actual expenses by month/ });
  await expect(budget).toBeVisible();
  await expect(page.getByTestId('budget-chart-rule')).toHaveText(
    /^Plan per month: the most specific active budget \(monthly, else quarterly ÷ 3, else annual ÷ 12\)/,
  );
  await page.getByText('Show the numbers').first().click();
  await expect(page.getByRole('table').first()).toContainText('Budget');

  await page.getByTestId('tile-active-users').click();
  await expect(page).toHaveURL(/\/user-management/);
  await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
});

test('System Health reads as System Monitoring’s Overall Health, and leads there', async ({ page, js, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
  const verdict = async (path: string, testId: string) => {
    await page.goto(path);
    await waitForHydration(page, js);
    const tile = page.getByTestId(testId);
    return `${await tile.locator('p.text-2xl').innerText()} · ${await tile.locator('p.text-xs').first().innerText()}`;
  };
  // Both read the web process's newest sample (taken every 10 s): compare readings of one sample.
  await expect(async () => {
    const home = await verdict('/', 'tile-system-health');
    expect(home).toMatch(/^(Healthy|Warning|Critical) · /);
    expect(home).toBe(await verdict('/system-monitoring', 'tile-overall'));
  }).toPass({ timeout: 30_000 });
  await page.goto('/');
  await page.getByTestId('tile-system-health').click();
  await expect(page.getByRole('heading', { name: 'System Monitoring', level: 1 })).toBeVisible();
});

test('a viewer of one company: the access card and that company’s charts only', async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'viewer', companyId: COMPANY.vult }));
  await page.goto('/');
  await expect(page.getByTestId('access-card')).toBeVisible();
  await expect(page.getByTestId('available-companies').getByRole('listitem')).toHaveCount(1);
  await expect(page.getByTestId('tile-active-users')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Recent Activity' })).toHaveCount(0);
  await expect(page.getByRole('img', { name: /Budget and actual expenses by month, Vult/ })).toBeVisible();
});

test('with JavaScript the figures refresh by themselves; without, a reload shows them', async ({
  page,
  js,
  createUser,
  database,
}) => {
  const admin = await createUser({ role: 'admin' });
  await page.clock.install();
  await signInByApi(page, admin);
  await page.goto('/');
  await waitForHydration(page, js);
  const backup = page.getByTestId('tile-last-backup');
  await expect(backup).toBeVisible();
  const name = `e2e dashboard ${js ? 'js' : 'nojs'} ${Date.now()}`;
  const [row] = await database.db
    .insertInto('backups')
    .values({
      name,
      description: null,
      type: 'manual',
      status: 'completed',
      error: null,
      tables: JSON.stringify(['companies']) as never,
      size: 1,
      recordCount: 1,
      createdAt: new Date(Date.now() + 60_000).toISOString(),
    })
    .returning('id')
    .execute();
  try {
    if (js) await page.clock.runFor(31_000);
    else await page.reload();
    await expect(backup).toContainText(name);
  } finally {
    await database.db.deleteFrom('backups').where('id', '=', row.id).execute();
  }
});
