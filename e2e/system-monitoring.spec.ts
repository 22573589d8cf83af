// System Monitoring and System Settings in a real browser, with and without JavaScript: the
// health tiles, an error resolved with the required notes (the button stays disabled while
// they are empty with JavaScript; the server refuses them without), the spec's toast and
// the resolved state; recovery actions and metrics; System Settings' real facts.
import { signInByApi, waitForHydration } from './support/app.ts';
import { expect, test } from './support/fixtures.ts';
import { toast } from './support/resources.ts';

test('an error is resolved with notes; the other tabs and the tiles', async ({ page, js, createUser, database }) => {
  const now = new Date().toISOString();
  const tag = `e2e monitoring ${js ? 'js' : 'nojs'} ${Date.now()}`;
  const [error] = await database.db
    .insertInto('systemErrors')
    .values({
      severity: 'high',
      errorType: 'TypeError',
      message: `${tag}: cannot read`,
      endpoint: '/api/things/:id',
      method: 'GET',
      fingerprint: tag,
      firstOccurrence: now,
      lastOccurrence: now,
      occurrenceCount: 2,
      affectedUsers: 1,
    })
    .returning('id')
    .execute();
  await signInByApi(page, await createUser({ role: 'admin' }));
  await page.goto('/system-monitoring');
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { name: 'System Monitoring', level: 1 })).toBeVisible();
  for (const tile of ['tile-overall', 'tile-cpu', 'tile-memory', 'tile-database'])
    await expect(page.getByTestId(tile)).toBeVisible();

  const row = page.getByTestId('system-error').filter({ hasText: tag });
  await expect(row).toContainText('2 occurrences');
  await row.getByRole('link', { name: /^Resolve/ }).click();
  const panel = page.getByTestId('form-panel');
  await expect(panel.getByRole('heading', { name: 'Resolve Error' })).toBeVisible();
  const confirm = panel.getByRole('button', { name: 'Mark as Resolved' });
  if (js) {
    await expect(confirm).toBeDisabled();
  } else {
    // Without JavaScript the browser's own check stops an empty submit; blank notes reach the server.
    await panel.getByLabel('Resolution notes').fill('   ');
    await confirm.click();
    await expect(page.getByTestId('form-panel')).toContainText('Resolution notes are required');
  }
  await page.getByTestId('form-panel').getByLabel('Resolution notes').fill('Fixed the null check');
  await page.getByTestId('form-panel').getByRole('button', { name: 'Mark as Resolved' }).click();
  await expect(toast(page)).toContainText('Error marked as resolved', { timeout: 15_000 });
  await expect(row).toContainText('Resolved');
  await expect(row).toContainText('Fixed the null check');
  await expect(row.getByRole('link', { name: /^Resolve/ })).toHaveCount(0);
  await database.db.deleteFrom('systemErrors').where('id', '=', error.id).execute();

  const tabs = page.getByRole('navigation', { name: 'System monitoring sections' });
  await tabs.getByRole('link', { name: 'Recovery Actions' }).click();
  await expect(page).toHaveURL(/tab=recovery/);
  await tabs.getByRole('link', { name: 'System Metrics' }).click();
  await expect(page.getByTestId('system-metrics')).toContainText('Requests per minute');
});

test('System Settings shows the real version and live statuses', async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
  await page.goto('/system-settings');
  await expect(page.getByRole('heading', { name: 'System Settings', level: 1 })).toBeVisible();
  await expect(page.getByTestId('database-version')).toContainText('SQLite');
  const statuses = page.getByTestId('system-statuses');
  for (const name of ['Database', 'Job engine', 'Backups', 'Security']) await expect(statuses).toContainText(name);
  await page.getByTestId('quick-links').getByRole('link', { name: 'Audit Trail' }).click();
  await expect(page).toHaveURL(/\/audit-trail/);
});
