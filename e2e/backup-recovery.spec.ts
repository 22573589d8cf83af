// Backup & Recovery (docs/screens.md): create a backup from the form, wait for
// it (with JavaScript the list updates by itself every 3 s; without it the user reloads),
// verify it, select it for restore and restore it without overwrite through the confirmation,
// and delete another one through the spec's confirmation (the browser's confirm() with
// JavaScript, the server's confirmation step without).
// Both projects share one server and database: backups carry a tag of this test and project,
// only the Actual Revenue table is backed up (no spec deletes its rows, so a restore without
// overwrite changes nothing another test sees), and no count is global.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import { toast, uniqueTag } from './support/resources.ts';

const DELETE_MESSAGE = 'Are you sure you want to delete this backup? This action cannot be undone.';

/** The entry of the backup named `name` in the history list. */
function entryOf(page: Page, name: string): Locator {
  return page.getByTestId('backup').filter({ has: page.getByTestId('backup-name').getByText(name, { exact: true }) });
}

async function createBackup(page: Page, js: boolean, name: string): Promise<Locator> {
  await page.goto('/backup-recovery?tab=create');
  await waitForHydration(page, js);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Description', { exact: true }).fill(`Made by ${name}`);
  await page.getByRole('checkbox', { name: 'Actual Revenue', exact: true }).check();
  await page.getByRole('button', { name: 'Create Backup', exact: true }).click();
  await expect(toast(page)).toContainText('Backup created successfully');
  await expect(page).toHaveURL(/\/backup-recovery\?tab=backups$/);
  const entry = entryOf(page, name);
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(`Made by ${name}`);
  return entry;
}

/** With JavaScript the page refreshes itself while a backup runs; without it, reload (as the page says). */
async function waitUntilCompleted(page: Page, js: boolean, entry: Locator): Promise<void> {
  if (js) {
    await expect(entry).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  } else {
    await expect(async () => {
      if ((await entry.getAttribute('data-status')) === 'in_progress') {
        await expect(entry.getByTestId('backup-in-progress')).toHaveText(
          'In progress — reload the page to see the result',
        );
        await page.reload();
      }
      expect(await entry.getAttribute('data-status')).toBe('completed');
    }).toPass({ timeout: 30_000 });
  }
  await expect(entry.getByTestId('backup-status')).toHaveText('Completed');
}

test.beforeEach(async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
});

test('create, verify and restore a backup, and delete another', async ({ page, js }, testInfo) => {
  test.setTimeout(120_000);
  const tag = uniqueTag(testInfo, 'backup');
  const kept = `${tag} restore`;
  const doomed = `${tag} delete`;
  const doomedEntry = await createBackup(page, js, doomed);
  const entry = await createBackup(page, js, kept);
  await waitUntilCompleted(page, js, entry);
  await expect(entry).toContainText('Tables: 1');

  // Verify.
  await entry.getByRole('button', { name: `Verify ${kept}` }).click();
  await expect(toast(page)).toContainText('Verified');
  await expect(toast(page)).toContainText('Backup integrity verified');

  // Select it for restore: both options off; the overwrite warning with the option.
  await entryOf(page, kept)
    .getByRole('link', { name: /^Select for restore/ })
    .click();
  await expect(page).toHaveURL(/tab=restore&backup=\d+/);
  await waitForHydration(page, js);
  await expect(page.getByTestId('selected-backup')).toContainText(kept);
  await expect(page.getByTestId('selected-backup')).toContainText('Actual Revenue');
  const overwrite = page.getByRole('checkbox', { name: 'Overwrite existing data' });
  await expect(overwrite).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Skip audit logs/ })).not.toBeChecked();
  const warning = page.getByText('Existing data in the restored tables will be permanently deleted and replaced');
  if (js) {
    await expect(warning).toHaveCount(0);
    await overwrite.check();
    await expect(warning).toBeVisible();
    await overwrite.uncheck();
    await expect(warning).toHaveCount(0);
  } else {
    await expect(warning).toBeVisible();
  }

  // Restore without overwrite, after the confirmation.
  const restore = page.getByRole('button', { name: 'Restore Backup' });
  const question = `Restore the backup "${kept}"?`;
  if (js) {
    const dialog = page.waitForEvent('dialog');
    const click = restore.click();
    const d = await dialog;
    expect(d.message()).toContain(question);
    expect(d.message()).not.toContain('permanently deleted');
    await d.accept();
    await click;
  } else {
    await restore.click();
    const step = page.getByTestId('confirm-restore');
    await expect(step).toContainText(question);
    await step.getByRole('button', { name: 'Confirm' }).click();
  }
  await expect(toast(page)).toContainText('Backup restored successfully');
  await expect(toast(page)).toContainText('existing rows were kept');
  // The selection clears: back on the list.
  await expect(page).toHaveURL(/\/backup-recovery\?tab=backups$/);

  // Delete the other one, through the spec's confirmation.
  await waitUntilCompleted(page, js, doomedEntry);
  const remove = doomedEntry.getByRole('button', { name: `Delete ${doomed}` });
  if (js) {
    // Cancelled first: nothing happens; then accepted.
    page.once('dialog', (d) => void d.dismiss());
    await remove.click();
    await expect(doomedEntry).toHaveCount(1);
    const dialog = page.waitForEvent('dialog');
    const click = remove.click();
    const d = await dialog;
    expect(d.message()).toBe(DELETE_MESSAGE);
    await d.accept();
    await click;
  } else {
    await remove.click();
    const step = page.getByTestId('confirm-delete');
    await expect(step).toContainText(DELETE_MESSAGE);
    await step.getByRole('button', { name: 'Confirm' }).click();
  }
  await expect(toast(page)).toContainText('Backup deleted successfully');
  await expect(doomedEntry).toHaveCount(0);
  await expect(entryOf(page, kept)).toHaveCount(1);
});

test('a backup in progress: updates by itself with JavaScript, says to reload without', async ({
  page,
  js,
  database,
}, testInfo) => {
  const name = uniqueTag(testInfo, 'running');
  const { id } = await database.db
    .insertInto('backups')
    .values({ name, type: 'manual', status: 'in_progress', tables: JSON.stringify(['actualRevenue']) as never })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    await page.goto('/backup-recovery');
    await waitForHydration(page, js);
    const entry = entryOf(page, name);
    await expect(entry).toHaveAttribute('data-status', 'in_progress');
    await expect(entry.getByTestId('backup-status')).toHaveText('In progress');
    await expect(entry.getByTestId('backup-in-progress')).toHaveText(
      js ? 'In progress — the status updates by itself' : 'In progress — reload the page to see the result',
    );
    const now = new Date().toISOString();
    await database.db
      .updateTable('backups')
      .set({ status: 'failed', error: `${name} stopped`, completedAt: now, updatedAt: now })
      .where('id', '=', id)
      .execute();
    if (!js) await page.reload();
    await expect(entry).toHaveAttribute('data-status', 'failed', { timeout: 10_000 });
    await expect(entry).toContainText(`Failed: ${name} stopped`);
  } finally {
    await database.db.deleteFrom('backups').where('id', '=', id).execute();
  }
});
