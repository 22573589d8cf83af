// API Integration in a real browser, with and without JavaScript (docs/screens.md): the
// six tabs, a source added in its dialog (a panel without JavaScript) and deleted after the
// spec's confirmation, an endpoint with Sync Now, a credential that is never shown again, the
// sync log of the run, and the analysis tabs; an endpoint's company chosen in its form, and a
// partial run shown as Partial with its skipped records. Each project works on sources of its own.
import { signInByApi, waitForHydration } from './support/app.ts';
import { COMPANY, expect, test } from './support/fixtures.ts';
import { confirmDelete, formPanel, tableRows, toast, uniqueTag } from './support/resources.ts';

test('sources, endpoints, Sync Now, credentials, logs and the analysis tabs', async ({
  page,
  js,
  createUser,
}, testInfo) => {
  // Six tabs and five forms in one story: longer than the default 30 s on a loaded machine.
  test.setTimeout(90_000);
  const tag = uniqueTag(testInfo, 'api');
  await signInByApi(page, await createUser({ role: 'admin' }));
  await page.goto('/api-integrations');
  await waitForHydration(page, js);
  await expect(page.getByRole('heading', { name: 'API Integration', level: 1 })).toBeVisible();
  const tabs = page.getByRole('navigation', { name: 'API integration sections' });
  await expect(tabs.getByRole('link', { name: 'Recommendations' })).toHaveAttribute('aria-current', 'page');

  await tabs.getByRole('link', { name: 'API Sources' }).click();
  await page.getByRole('link', { name: 'Add API Source' }).click();
  const panel = formPanel(page);
  await panel.getByLabel('Name').fill(`${tag} source`);
  await panel.getByLabel('Base URL').fill('https://api.example.com/v1');
  await panel.getByLabel('Auth Type').selectOption('bearer');
  await panel.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('API source created successfully', { timeout: 15_000 });
  await expect(tableRows(page).filter({ hasText: `${tag} source` })).toContainText('Active');

  await page.getByRole('link', { name: 'Add API Source' }).click();
  await formPanel(page).getByLabel('Name').fill(`${tag} spare`);
  await formPanel(page).getByLabel('Base URL').fill('https://spare.example.com');
  await formPanel(page).getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('API source created successfully', { timeout: 15_000 });
  const spare = tableRows(page).filter({ hasText: `${tag} spare` });
  await confirmDelete(
    page,
    js,
    spare.getByRole('button', { name: /^Delete/ }),
    'Are you sure you want to delete this API source?',
    true,
  );
  await expect(toast(page)).toContainText('API source deleted successfully', { timeout: 15_000 });
  await expect(spare).toHaveCount(0);

  await tabs.getByRole('link', { name: 'Endpoints' }).click();
  await page.getByRole('link', { name: 'Add API Endpoint' }).click();
  const endpointForm = formPanel(page);
  await endpointForm.getByLabel('Source').selectOption({ label: `${tag} source` });
  await endpointForm.getByLabel('Name', { exact: true }).fill(`${tag} expenses`);
  await endpointForm.getByLabel('Endpoint', { exact: true }).fill('/expenses');
  await endpointForm.getByLabel('Target Table').selectOption('actual_expenses');
  await endpointForm.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('API endpoint created successfully', { timeout: 15_000 });
  const row = tableRows(page).filter({ hasText: `${tag} expenses` });
  await expect(row).toContainText('Never');
  await row.getByRole('button', { name: `Sync Now: ${tag} expenses` }).click();
  await expect(toast(page)).toContainText('Sync started successfully', { timeout: 15_000 });

  await tabs.getByRole('link', { name: 'Credentials' }).click();
  await expect(page.getByText('Credentials are encrypted and stored securely')).toBeVisible();
  const form = page.getByRole('form', { name: 'Add credential' });
  await form.getByLabel('Source').selectOption({ label: `${tag} source (bearer)` });
  await form.getByLabel('Credential key').fill('token');
  await form.getByLabel('Credential value').fill(`${tag}-secret`);
  await form.getByRole('button', { name: 'Add credential' }).click();
  await expect(toast(page)).toContainText('API credential created successfully', { timeout: 15_000 });
  await expect(page.getByText(`${tag}-secret`)).toHaveCount(0);

  await tabs.getByRole('link', { name: 'Sync Logs' }).click();
  await expect(
    page
      .getByTestId('sync-log')
      .filter({ hasText: `${tag} expenses` })
      .first(),
  ).toBeVisible();

  await tabs.getByRole('link', { name: 'Performance' }).click();
  await expect(page.getByTestId('performance-tiles')).toContainText('Success rate');
  await expect(page.getByTestId('timeline-item').first()).toBeVisible();
});

test("an endpoint's company, and a partial run's skipped records in the sync log", async ({
  page,
  js,
  createUser,
  database,
}, testInfo) => {
  const tag = uniqueTag(testInfo, 'partial');
  await signInByApi(page, await createUser({ role: 'admin' }));
  await database.db
    .insertInto('apiIntegrationSources')
    .values({ name: `${tag} source`, baseUrl: 'https://cards.example.com/v1' })
    .execute();
  await page.goto('/api-integrations?tab=endpoints&new=1');
  await waitForHydration(page, js);
  const endpointForm = formPanel(page);
  await endpointForm.getByLabel('Source').selectOption({ label: `${tag} source` });
  await endpointForm.getByLabel('Name', { exact: true }).fill(`${tag} cards`);
  await endpointForm.getByLabel('Endpoint', { exact: true }).fill('/cards');
  await endpointForm.getByLabel('Target Table').selectOption('actual_expenses');
  await expect(endpointForm.getByLabel('Company')).toHaveValue('');
  await expect(endpointForm.getByLabel('Company').locator('option').first()).toHaveText('Named by each record');
  await endpointForm.getByLabel('Company').selectOption({ label: 'Spark Marketing' });
  await endpointForm.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('API endpoint created successfully', { timeout: 15_000 });
  await expect(tableRows(page).filter({ hasText: `${tag} cards` })).toContainText('Spark Marketing');

  const endpoint = await database.db
    .selectFrom('apiIntegrationEndpoints')
    .select(['id', 'companyId'])
    .where('name', '=', `${tag} cards`)
    .executeTakeFirstOrThrow();
  expect(endpoint.companyId).toBe(COMPANY.spark);
  const reason = 'categoryId: no expense category named "Tower Leases" in Spark Marketing';
  const now = new Date().toISOString();
  await database.db
    .insertInto('apiIntegrationSyncLogs')
    .values({
      endpointId: endpoint.id,
      status: 'partial',
      startedAt: now,
      completedAt: now,
      recordsProcessed: 2,
      recordsCreated: 1,
      recordsSkipped: 1,
      syncDuration: 800,
      errorMessage: `1 record skipped; first: ${reason}`,
      syncData: JSON.stringify({ errors: [{ record: `${tag}-towers`, message: reason }] }),
    })
    .execute();
  await page
    .getByRole('navigation', { name: 'API integration sections' })
    .getByRole('link', { name: 'Sync Logs' })
    .click();
  const log = page.getByTestId('sync-log').filter({ hasText: `${tag} cards` });
  await expect(log).toContainText('Partial');
  await expect(log).not.toContainText('Success');
  // The reasons are in the row's details row, just below it.
  const skipped = log.locator('xpath=following-sibling::tr[1]').getByTestId('skipped-records');
  await expect(skipped.getByText(`${tag}-towers: ${reason}`)).toBeHidden();
  await skipped.getByText('1 skipped record').click();
  await expect(skipped.getByText(`${tag}-towers: ${reason}`)).toBeVisible();
});
