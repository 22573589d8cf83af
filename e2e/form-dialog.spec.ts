// The form dialog's module (Headless UI) loads only once a form is shown. What is typed into the
// panel before it arrives must not be lost when the form moves into the dialog: the panel's
// fields stay disabled until then, so typing lands in the dialog's form. The module is delayed
// here to make the wait long enough to type into.
import { expect, test } from './support/fixtures.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import { formPanel } from './support/resources.ts';

test('typing while the dialog module loads is kept', async ({ page, js, createUser }) => {
  test.skip(!js, 'without JavaScript the panel is the form, with nothing to load');
  await page.route(/form-dialog-.*\.js$/, async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await signInByApi(page, await createUser({ role: 'admin' }));
  await page.goto('/budget-planning');
  await waitForHydration(page, js);
  await page.getByRole('link', { name: 'Add Budget Entry' }).click();
  const panel = formPanel(page);
  await expect(panel).toBeVisible();
  await panel.getByLabel('Amount', { exact: true }).fill('4321.5');
  await expect(page.getByRole('dialog').getByTestId('form-panel')).toBeVisible();
  await expect(page.getByRole('dialog').getByLabel('Amount', { exact: true })).toHaveValue('4321.5');
});
