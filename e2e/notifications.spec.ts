// The bell and /notifications in a real browser (docs/screens.md). With JavaScript the
// bell opens a pop-over: tabs filter, mark read lowers the badge, dismiss removes an item, mark
// all read clears the badge, the action link navigates. Without JavaScript the bell is a link to
// the page, whose tabs are links and whose actions are forms. Each test sends its notifications
// to a fresh user, so the two projects (one database) never see each other's.
import type { Page } from '@playwright/test';
import { systemActor } from '../app/platform/context.ts';
import { notify, type NotifyInput } from '../app/features/notifications/notifications.server.ts';
import { signIn, waitForHydration } from './support/app.ts';
import { expect, test, type E2EUser } from './support/fixtures.ts';
import { toast } from './support/resources.ts';
import { noEngine } from '../test/context.ts';

const bell = (page: Page) => page.getByTestId('notification-bell');
const badge = (page: Page) => page.getByTestId('notification-badge');

test.describe('notifications', () => {
  let user: E2EUser;

  test.beforeEach(async ({ page, createUser, database }) => {
    user = await createUser({ role: 'viewer' });
    const system = { db: database.db, actor: systemActor('worker'), meta: {}, runtime: noEngine() };
    const send = async (input: Omit<NotifyInput, 'to' | 'message'> & { message?: string }) =>
      notify(system, { message: `About ${input.title}`, ...input, to: { userId: user.id } });
    await send({
      title: 'Backup completed',
      category: 'system',
      type: 'success',
      actionUrl: '/profile',
      actionText: 'View profile',
    });
    await send({ title: 'Budget over plan', category: 'financial', type: 'warning', priority: 'high' });
    await send({ title: 'Password changed', category: 'security', type: 'info' });
    await signIn(page, user);
  });

  test('with JavaScript: the pop-over, its tabs, mark read, dismiss, mark all read and the action link', async ({
    page,
    js,
  }) => {
    test.skip(!js, 'the pop-over needs JavaScript');
    await waitForHydration(page, js);
    await expect(badge(page)).toHaveText('3');
    await bell(page).click();
    const panel = page.getByTestId('notification-panel');
    await expect(panel.getByTestId('notification')).toHaveCount(3);
    // Newest first.
    await expect(panel.getByTestId('notification').first()).toContainText('Password changed');

    await panel.getByRole('button', { name: 'Financial', exact: true }).click();
    await expect(panel.getByTestId('notification')).toHaveCount(1);
    await expect(panel.getByTestId('notification')).toContainText('Budget over plan');
    await panel.getByRole('button', { name: 'Mark as read: Budget over plan' }).click();
    await expect(badge(page)).toHaveText('2');
    await expect(panel.getByTestId('notification')).toHaveAttribute('data-read', 'true');

    await panel.getByRole('button', { name: 'Unread', exact: true }).click();
    await expect(panel.getByTestId('notification')).toHaveCount(2);
    await panel.getByRole('button', { name: 'Dismiss: Password changed' }).click();
    await expect(panel.getByTestId('notification')).toHaveCount(1);
    await expect(badge(page)).toHaveText('1');

    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(panel.getByText('No notifications found')).toBeVisible();
    await expect(badge(page)).toHaveCount(0);
    await expect(bell(page)).toHaveAccessibleName('Notifications');

    await panel.getByRole('button', { name: 'All', exact: true }).click();
    await expect(panel.getByTestId('notification')).toHaveCount(2);
    await panel.getByRole('link', { name: 'View profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(panel).toBeHidden();
  });

  test('with JavaScript: the count refreshes while the tab is visible', async ({ page, js, database }) => {
    test.skip(!js, 'polling needs JavaScript');
    await page.clock.install();
    await page.goto('/profile');
    await waitForHydration(page, js);
    await expect(badge(page)).toHaveText('3');
    await notify(
      { db: database.db, actor: systemActor('worker'), meta: {}, runtime: noEngine() },
      { title: 'Later', message: 'Arrived later', category: 'system', to: { userId: user.id } },
    );
    await page.clock.runFor(31_000);
    await expect(badge(page)).toHaveText('4');
  });

  test('the page: the bell leads there without JavaScript; its tabs and forms work either way', async ({
    page,
    js,
  }) => {
    await expect(badge(page)).toHaveText('3');
    if (js) {
      await page.getByTestId('notification-bell').click();
      await page.getByRole('link', { name: 'View all notifications' }).click();
    } else {
      await bell(page).click();
    }
    await expect(page).toHaveURL(/\/notifications$/);
    await waitForHydration(page, js);
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
    const items = page.getByTestId('notification');
    await expect(items).toHaveCount(3);
    await expect(page.getByTestId('notification-figures')).toHaveText('3 unread of 3');

    await page
      .getByRole('navigation', { name: 'Notification filters' })
      .getByRole('link', { name: 'Security' })
      .click();
    await expect(page).toHaveURL(/tab=security/);
    await expect(items).toHaveCount(1);
    await page.getByRole('button', { name: 'Mark as read: Password changed' }).click();
    await expect(toast(page)).toContainText('Notification marked as read');
    await expect(page).toHaveURL(/tab=security/);
    await expect(badge(page)).toHaveText('2');

    await page.getByRole('navigation', { name: 'Notification filters' }).getByRole('link', { name: 'All' }).click();
    await page.getByRole('button', { name: 'Dismiss: Budget over plan' }).click();
    await expect(toast(page)).toContainText('Notification dismissed');
    await expect(items).toHaveCount(2);
    await expect(badge(page)).toHaveText('1');

    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(toast(page)).toContainText('All notifications marked as read');
    await expect(badge(page)).toHaveCount(0);
    await expect(page.getByTestId('notification-figures')).toHaveText('0 unread of 2');
    await page.getByRole('link', { name: 'View profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
  });
});
