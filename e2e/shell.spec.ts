// The signed-in shell: role-dependent sidebar, company scope, breadcrumbs, the 403/404
// screens and the small-screen sidebar (docs/security.md for what each role may open).
import { expect, test, COMPANY, type E2EUser } from './support/fixtures.ts';
import {
  ALL_COMPANY_METRICS,
  breadcrumb,
  CONFIGURATION,
  expectSameDocument,
  FINANCIAL_DATA,
  markDocument,
  sidebar,
  sidebarStructure,
  signIn,
  signInByApi,
  waitForHydration,
} from './support/app.ts';
import { OWNER_EMAIL, OWNER_PASSWORD } from './support/constants.ts';

const ADMIN_SIDEBAR = {
  Overview: ['Dashboard'],
  'Financial Data': FINANCIAL_DATA,
  'Analytics & AI': ['AI Insights', 'API Integration'],
  Configuration: CONFIGURATION,
  'Company Metrics': ALL_COMPANY_METRICS,
  'System Management': ['System Monitoring', 'Audit Trail', 'Backup & Recovery', 'API Documentation', 'Editor Stats'],
  Administration: ['User Management', 'Settings'],
  'My Profile': ['Profile'],
};

test.describe('sidebar by role', () => {
  test('viewer: data, configuration and metrics, but no administration', async ({ page, createUser }) => {
    await signIn(page, await createUser({ role: 'viewer' }));
    expect(await sidebarStructure(page)).toEqual({
      Overview: ['Dashboard'],
      'Financial Data': FINANCIAL_DATA,
      Configuration: CONFIGURATION,
      'Company Metrics': ALL_COMPANY_METRICS,
      'System Management': ['API Documentation'],
      'My Profile': ['Profile'],
    });
    const nav = sidebar(page);
    for (const hidden of [
      'User Management',
      'Audit Trail',
      'AI Insights',
      'Editor Stats',
      'My Dashboard',
      'Settings',
    ]) {
      await expect(nav.getByRole('link', { name: hidden, exact: true }), hidden).toHaveCount(0);
    }
    await expect(nav.getByRole('link', { name: 'Vult', exact: true })).toHaveAttribute('href', '/fintech-metrics');
    await expect(page.getByTestId('access-role')).toHaveText('Viewer');
    await expect(page.getByTestId('access-card')).toContainText('Read Only');
    // The four seeded companies (a subset check: e2e/reference-data.spec.ts may have added
    // and not yet deleted a company of its own at this moment, since the projects run in parallel).
    await expect(page.getByTestId('available-companies').getByRole('listitem')).toContainText([
      'One Network (mobile)',
      'Vult (fintech)',
      'Atlas Infrastructure (infrastructure)',
      'Spark Marketing (marketing)',
    ]);
  });

  test('admin: every group, with User Management, Editor Stats and Settings', async ({ page, createUser }) => {
    await signIn(page, await createUser({ role: 'admin' }));
    expect(await sidebarStructure(page)).toEqual(ADMIN_SIDEBAR);
    await expect(sidebar(page).getByRole('link', { name: 'Settings', exact: true })).toHaveAttribute(
      'href',
      '/system-settings',
    );
    await expect(page.getByTestId('access-role')).toHaveText('Admin');
    await expect(page.getByTestId('access-card')).toContainText('Full Access');
  });

  test('owner: the same sidebar as an admin', async ({ page }) => {
    await signIn(page, { email: OWNER_EMAIL, password: OWNER_PASSWORD });
    expect(await sidebarStructure(page)).toEqual(ADMIN_SIDEBAR);
  });

  test('editor: "My Dashboard", no administration', async ({ page, createUser }) => {
    await signIn(page, await createUser({ role: 'editor' }));
    expect(await sidebarStructure(page)).toEqual({
      Overview: ['Dashboard', 'My Dashboard'],
      'Financial Data': FINANCIAL_DATA,
      Configuration: CONFIGURATION,
      'Company Metrics': ALL_COMPANY_METRICS,
      'System Management': ['API Documentation'],
      'My Profile': ['Profile'],
    });
    await expect(sidebar(page).getByRole('link', { name: 'My Dashboard' })).toHaveAttribute(
      'href',
      '/editor-dashboard',
    );
    await expect(page.getByTestId('access-role')).toHaveText('Editor');
    await expect(page.getByTestId('access-card')).toContainText('Read & Write');
  });

  test('a viewer granted analytics and audit logs sees those entries too', async ({ page, createUser }) => {
    await signIn(
      page,
      await createUser({ role: 'viewer', flags: { canAccessAnalytics: true, canAccessAuditLogs: true } }),
    );
    const structure = await sidebarStructure(page);
    expect(structure['Analytics & AI']).toEqual(['AI Insights']);
    expect(structure['System Management']).toEqual(['Audit Trail', 'API Documentation']);
    expect(structure.Administration).toBeUndefined();
  });
});

test.describe('company scope', () => {
  test('a Vult user sees only Vult in the sidebar and on the access card', async ({ page, createUser }) => {
    await signIn(page, await createUser({ role: 'viewer', companyId: COMPANY.vult }));
    const structure = await sidebarStructure(page);
    expect(structure['Company Metrics']).toEqual(['Vult', 'Vult Financial Services', 'Vult Subscriber Metrics']);
    const card = page.getByTestId('access-card');
    await expect(card).toContainText('Vult');
    await expect(card).toContainText('Fintech');
    await expect(page.getByTestId('available-companies').getByRole('listitem')).toHaveText(['Vult (fintech)']);
  });

  test('a user of a company without metrics screens has no Company Metrics group', async ({ page, createUser }) => {
    await signIn(page, await createUser({ role: 'viewer', companyId: COMPANY.atlas }));
    const structure = await sidebarStructure(page);
    expect(structure['Company Metrics']).toBeUndefined();
    expect(structure['Financial Data']).toEqual(FINANCIAL_DATA);
    await expect(page.getByTestId('available-companies').getByRole('listitem')).toHaveText([
      'Atlas Infrastructure (infrastructure)',
    ]);
  });
});

test.describe('breadcrumbs', () => {
  test('show the group and the page, following the sidebar', async ({ page, js, createUser }) => {
    await signIn(page, await createUser());
    const trail = breadcrumb(page).getByRole('listitem');
    await expect(trail).toHaveText(['', 'Overview', 'Dashboard']);
    // With JavaScript the sidebar's links navigate in the page (AppLink), without it they load pages.
    await waitForHydration(page, js);
    await markDocument(page, js);

    // [sidebar link, path, breadcrumb group, breadcrumb title, page heading, a list with Export Data?]
    const steps: [string, string, string, string, string, boolean][] = [
      ['Budget Planning', '/budget-planning', 'Financial Data', 'Budget Planning', 'Budget Planning', true],
      ['Companies', '/companies', 'Configuration', 'Companies', 'Companies', true],
      // The fintech metrics screen is named after the first fintech company.
      ['Vult', '/fintech-metrics', 'Company Metrics', 'Fintech Metrics', 'Vult Metrics', true],
      ['API Documentation', '/api-documentation', 'System Management', 'API Documentation', 'API Documentation', false],
    ];
    for (const [link, path, group, title, heading, list] of steps) {
      await sidebar(page).getByRole('link', { name: link, exact: true }).click();
      await expect(page).toHaveURL(path);
      await expect(trail).toHaveText(['', group, title]);
      await expect(breadcrumb(page).locator('[aria-current="page"]')).toHaveText(title);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(page.getByText('This screen is not available yet.')).toHaveCount(0);
      if (list) await expect(page.getByRole('link', { name: 'Export Data' })).toBeVisible();
      // The sidebar marks where we are.
      await expect(sidebar(page).getByRole('link', { name: link, exact: true })).toHaveAttribute(
        'aria-current',
        'page',
      );
    }

    await breadcrumb(page).getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL('/');
    await expect(trail).toHaveText(['', 'Overview', 'Dashboard']);
    await expectSameDocument(page, js);
  });
});

test.describe('403 and 404 screens', () => {
  let viewer: E2EUser;
  test.beforeEach(async ({ page, createUser }) => {
    viewer = await createUser({ role: 'viewer' });
    await signInByApi(page, viewer);
  });

  test('a viewer gets "403 Access Denied" for administrator screens', async ({ page }) => {
    for (const path of ['/user-management', '/system-settings', '/audit-trail', '/editor-dashboard']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole('heading', { level: 1 }), path).toHaveText('403 Access Denied');
      await expect(page.getByText('This screen is not available yet.')).toHaveCount(0);
    }
    // Still inside the shell, with the way back.
    await expect(sidebar(page)).toBeVisible();
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByTestId('access-card')).toBeVisible();
  });

  test('an unknown path shows "404 Page Not Found" inside the shell', async ({ page }) => {
    const response = await page.goto('/definitely/not/a/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
    await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
    await expect(page.getByTestId('landing')).toHaveCount(0);
    await expect(sidebar(page)).toBeVisible();
    await expect(breadcrumb(page).getByRole('listitem')).toHaveText(['', 'Page']);
  });
});

test('an administrator opens the screens a viewer may not', async ({ page, createUser }) => {
  await signInByApi(page, await createUser({ role: 'admin' }));
  for (const [path, title] of [
    ['/user-management', 'User Management'],
    ['/system-settings', 'System Settings'],
    ['/audit-trail', 'Audit Trail'],
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(title);
  }
});

test.describe('small screen', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('the sidebar is hidden behind the menu button, which works without JavaScript', async ({ page, createUser }) => {
    await signInByApi(page, await createUser());
    await page.goto('/budget-planning');
    const nav = sidebar(page);
    const menu = page.getByTestId('sidebar-open');
    await expect(nav).toBeHidden();
    await expect(menu).toBeVisible();
    await expect(page.getByRole('link', { name: 'GFH' })).toBeVisible();

    await menu.click();
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Budget Planning' })).toBeVisible();

    // Close button.
    await page.getByTitle('Close navigation').click();
    await expect(nav).toBeHidden();

    // The overlay beside the open sidebar closes it too.
    await menu.click();
    await expect(nav).toBeVisible();
    await page.getByTestId('sidebar-overlay').click({ position: { x: 340, y: 400 } });
    await expect(nav).toBeHidden();

    // Following a link closes it.
    await menu.click();
    await nav.getByRole('link', { name: 'Companies' }).click();
    await expect(page).toHaveURL('/companies');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Companies');
    await expect(nav).toBeHidden();
  });

  test('on a wide screen the sidebar is always shown and the menu button is not', async ({ page, createUser }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, await createUser());
    await expect(sidebar(page)).toBeVisible();
    await expect(page.getByTestId('sidebar-open')).toBeHidden();
  });
});

test.describe('toasts', () => {
  test('the sign-in toast does not block the top bar buttons', async ({ page, createUser }) => {
    // Regression (fixed in 62fde4b): the toast sat fixed at the top right, over Profile and
    // Logout; with JavaScript for 5 seconds, without JavaScript until the next page.
    await signIn(page, await createUser());
    await expect(page.getByTestId('toast')).toContainText('Welcome back!');
    // Right after signing in, the user can sign out (a short timeout: with JavaScript the toast
    // goes away by itself after 5 seconds, which must not be what makes this pass).
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click({ timeout: 2_000 });
    await expect(page.getByTestId('landing')).toBeVisible();
  });
});
