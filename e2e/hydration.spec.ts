// The browser console stays quiet with JavaScript: no hydration warning or error on a list page,
// on a list page served with its form open (the form's module arrives after the page, and React
// hydrates the server's markup once it has), on a form opened from the list, or in the top bar's
// pop-overs. The no-JS project has nothing to hydrate.
import type { ConsoleMessage, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import { formPanel } from './support/resources.ts';

function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

test('list pages, their forms and the top bar hydrate without a console warning', async ({ page, js, createUser }) => {
  test.skip(!js, 'nothing is hydrated without JavaScript');
  await signInByApi(page, await createUser({ role: 'admin' }));
  const problems = consoleProblems(page);

  for (const url of ['/budget-planning', '/budget-planning?new=1', '/actual-expenses?new=1', '/departments']) {
    await page.goto(url);
    await waitForHydration(page, js);
    if (url.includes('new=1')) {
      // The form becomes a dialog once hydrated, with its fields.
      await expect(
        page.getByRole('dialog').getByTestId('form-panel').getByRole('button', { name: 'Create' }),
      ).toBeVisible();
    }
  }

  await page.goto('/budget-planning');
  await waitForHydration(page, js);
  await page.getByRole('link', { name: 'Add Budget Entry' }).click();
  // The dialog, not only the panel: the panel shows before the dialog's module has loaded, and
  // until then Escape has nothing to close.
  await expect(
    page.getByRole('dialog').getByTestId('form-panel').getByRole('button', { name: 'Create' }),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(formPanel(page)).toHaveCount(0);

  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-panel')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('settings-gear').click();
  await expect(page.getByLabel('Quick settings').getByText('Quick Settings')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Quick settings')).toHaveCount(0);

  expect(problems).toEqual([]);
});
