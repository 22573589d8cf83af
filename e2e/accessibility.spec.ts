// Accessibility (axe-core): no serious or critical violation on any screen of the route table,
// signed out (landing, login), the 403 and 404 screens, and the open forms (resource create
// and edit, the no-JS delete confirmation, user management's create/edit/permissions forms and
// tabs, the settings tabs, the profile's forms), with and without JavaScript (the two
// projects) and in the light and dark themes (each page state checked in both, see support/a11y.ts).
//
// The screens come from the route table (SCREENS) and the resource screens from the route
// files that serve a declared resource (`resourceLoader(<def>, …)`), so a new screen is checked
// the day it lands. Each test visits many page states and reports every violation at once.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { SCREENS } from '../app/platform/screen/navigation.ts';
import { resourceScreens } from '../test/fuzz/targets.ts';
import type { ResourceDef } from '../app/platform/resources/define.ts';
import { audit, expect, expectNoViolations, open, signedInAccount, test } from './support/a11y.ts';
import { apiPost, categoryIds, departmentIds } from './support/resources.ts';
import { COMPANY } from './support/fixtures.ts';
import { systemActor } from '../app/platform/context.ts';
import { notify } from '../app/features/notifications/notifications.server.ts';
import { noEngine } from '../test/context.ts';
import { totpCode } from '../app/features/auth/two-factor-codes.server.ts';
import { waitForHydration } from './support/app.ts';

const ROUTES_DIR = path.resolve(import.meta.dirname, '../app/routes');
const NOT_FOUND = '/no-such-page-a11y';

/**
 * The resource screens: the route files the fuzz suite finds (an action `resourceAction(<def>,
 * …)` or tabs `resourceTabs({ <tab>: <def>, … })`, checked on the default tab) whose loader is
 * the generic list's (`resourceLoader(`).
 */
const RESOURCE_SCREENS: { path: string; def: ResourceDef }[] = resourceScreens().filter((screen) =>
  fs.readFileSync(path.join(ROUTES_DIR, `_shell.${screen.path.slice(1)}.tsx`), 'utf8').includes('resourceLoader('),
);

/**
 * A row to edit when a resource screen has none yet (the e2e database has reference data only):
 * the JSON API body of one valid row, by screen. A resource screen missing here fails with a
 * message saying so once its list is empty.
 */
type Ids = {
  departments: Record<string, number>;
  vult: Record<string, number>;
  /** 0–1: which of the two runs (one per project) asks. */ slot: number;
};
const SAMPLE_ROWS: Record<string, (ids: Ids) => Record<string, unknown>> = {
  '/budget-planning': (ids) => ({
    departmentId: ids.departments.Finance,
    categoryId: ids.vult['Audit & Accounting'],
    amount: 1234,
    period: 'monthly',
    startDate: '2031-01-01',
    endDate: '2031-01-31',
    description: 'a11y',
  }),
  '/actual-expenses': (ids) => ({
    departmentId: ids.departments.Finance,
    categoryId: ids.vult['Audit & Accounting'],
    amount: 99,
    expenseDate: '2031-01-05',
    description: 'a11y',
  }),
  '/revenue-projections': () => ({
    companyId: COMPANY.vult,
    source: 'Card Fees',
    amount: 5000,
    period: 'monthly',
    startDate: '2031-01-01',
    endDate: '2031-01-31',
    description: 'a11y',
  }),
  '/actual-revenue': () => ({
    companyId: COMPANY.vult,
    source: 'Card Fees',
    amount: 700,
    revenueDate: '2031-01-05',
    description: 'a11y',
  }),
  '/mobile-metrics': () => ({
    companyId: COMPANY.oneNetwork,
    companyType: 'mobile',
    metricName: 'new_subscribers',
    metricValue: 10,
    period: 'monthly',
    recordDate: '2031-01-05',
  }),
  '/fintech-metrics': () => ({
    companyId: COMPANY.vult,
    companyType: 'fintech',
    metricName: 'new_users',
    metricValue: 10,
    period: 'monthly',
    recordDate: '2031-01-05',
  }),
  // One month per run (one per project), so runs at the same time never clash.
  '/one-network-data': (ids) => ({
    companyId: COMPANY.oneNetwork,
    year: 2020,
    month: 1 + ids.slot,
    connectionType: 'fixed_fiber',
    activeConnections: 10,
    newThisMonth: 1,
    churnThisMonth: 1,
  }),
};

/** The id of a real row on the screen's list, creating one through the API if the list is empty. */
async function rowToEdit(
  page: Page,
  screen: { path: string; def: ResourceDef },
  ids: () => Promise<Ids>,
): Promise<number> {
  // An edit link of the list (table rows or cards) in the main content; by CSS, since an open
  // dialog hides the rest of the page from the accessibility tree.
  const editLink = page.locator('main a[href*="edit="]').first();
  if ((await editLink.count()) > 0) {
    const href = (await editLink.getAttribute('href')) ?? '';
    return Number(new URL(href, 'http://x').searchParams.get('edit'));
  }
  const sample = SAMPLE_ROWS[screen.path];
  if (!sample)
    throw new Error(
      `${screen.path} has no row to edit: add a sample row for it to SAMPLE_ROWS in e2e/accessibility.spec.ts`,
    );
  const row = await apiPost<{ id: number }>(page, `/api/${screen.def.key}`, sample(await ids()));
  return row.id;
}

/** The targets of a tab bar (a `nav` of links with aria-current), read from the page. */
async function tabLinks(page: Page, label: string): Promise<string[]> {
  const links = page.getByRole('navigation', { name: label }).getByRole('link');
  const hrefs = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href') ?? ''));
  expect(hrefs.length, `tabs of "${label}"`).toBeGreaterThan(1);
  return hrefs;
}

/** With JavaScript the form is a dialog: wait until it is open (focus moved in) before checking. */
async function formOpen(page: Page): Promise<void> {
  await expect(page.getByTestId('form-panel')).toBeVisible();
}

// Route-table screens in chunks, so the checks spread over the workers.
const SCREEN_PATHS = [...SCREENS.map((s) => s.path), NOT_FOUND];
const CHUNK = 8;
const CHUNKS = Array.from({ length: Math.ceil(SCREEN_PATHS.length / CHUNK) }, (_, i) =>
  SCREEN_PATHS.slice(i * CHUNK, (i + 1) * CHUNK),
);

test('the route table has screens and resource screens to check', () => {
  expect(SCREENS.length).toBeGreaterThan(20);
  expect(RESOURCE_SCREENS.map((s) => s.path)).toContain('/budget-planning');
});

// Generous ceilings for a busy CI machine; the checks themselves take a few seconds per test.
test.describe.configure({ timeout: 90_000 });

test.describe('signed in', () => {
  for (const [index, paths] of CHUNKS.entries()) {
    test(`route-table screens, part ${index + 1} (${paths[0]} …)`, async ({ page, js }) => {
      // A screen's server-rendered markup is the same with JavaScript on and off; its dark
      // contrast is checked in the js project. What only no-JS renders (panels, confirmation
      // steps, full-page errors) is checked dark and light in the tests below.
      const found: string[] = [];
      for (const screenPath of paths) {
        const status = await open(page, screenPath, js);
        expect([200, 404], `status of ${screenPath}`).toContain(status);
        await audit(page, screenPath, found, js, { dark: js });
      }
      expectNoViolations(found);
    });
  }

  for (const screen of RESOURCE_SCREENS) {
    test(`${screen.path}: the create and edit forms and the delete confirmation step`, async ({ page, js }) => {
      const found: string[] = [];
      const ids = async (): Promise<Ids> => ({
        departments: await departmentIds(page),
        vult: await categoryIds(page, COMPANY.vult),
        slot: js ? 1 : 0,
      });
      await open(page, `${screen.path}?new=1`, js, 200);
      await formOpen(page);
      await audit(page, `${screen.path}?new=1`, found, js);

      const id = await rowToEdit(page, screen, ids);
      await open(page, `${screen.path}?edit=${id}`, js, 200);
      await formOpen(page);
      await audit(page, `${screen.path}?edit=${id}`, found, js);

      if (!js) {
        // Without JavaScript a delete first answers the server's confirmation step.
        await page
          .locator('main')
          .getByRole('button', { name: /^Delete / })
          .first()
          .click();
        await expect(page.getByTestId('confirm-delete')).toBeVisible();
        await audit(page, `${screen.path} delete confirmation`, found, js);
      }
      expectNoViolations(found);
    });
  }

  test('user management: tabs and the create, edit and permissions forms', async ({ page, js, createUser }) => {
    const found: string[] = [];
    const target = await createUser({ role: 'viewer' });
    await open(page, '/user-management', js, 200);
    for (const href of await tabLinks(page, 'User management tabs')) {
      const url = new URL(href, `http://x/user-management`);
      await open(page, url.pathname + url.search, js, 200);
      await audit(page, `/user-management${url.search}`, found, js);
    }
    for (const form of ['new=1', `edit=${target.id}`, `permissions=${target.id}`]) {
      await open(page, `/user-management?${form}`, js, 200);
      await formOpen(page);
      await audit(page, `/user-management?${form}`, found, js);
    }
    expectNoViolations(found);
  });

  test('settings tabs, profile forms and the shell pop-overs', async ({ page, js }) => {
    const found: string[] = [];
    await open(page, '/settings', js, 200);
    for (const href of await tabLinks(page, 'Settings sections')) {
      await open(page, href, js, 200);
      await audit(page, href, found, js);
    }
    for (const url of ['/profile?edit=1', '/profile?password=1']) {
      await open(page, url, js, 200);
      await audit(page, url, found, js);
    }
    if (js) {
      // The gear opens the quick settings pop-over with JavaScript.
      await open(page, '/profile', js, 200);
      await page.getByTestId('settings-gear').click();
      await expect(
        page.getByRole('dialog', { name: 'Quick settings' }).or(page.getByLabel('Quick settings')),
      ).toBeVisible();
      await audit(page, 'quick settings pop-over', found, js);
      await page.keyboard.press('Escape');
    }
    expectNoViolations(found);
  });

  test('company metric screens: every tab and the record forms', async ({ page, js }) => {
    const found: string[] = [];
    const states = [
      ...['broadband', 'mobile', 'access'].flatMap((tab) => [
        `/one-network-subscription-metrics?tab=${tab}`,
        `/one-network-subscription-metrics?tab=${tab}&new=1`,
      ]),
      ...['metrics', 'levels', 'cards'].map((tab) => `/vult-financial-services?tab=${tab}`),
      ...['levels', 'cards'].map((tab) => `/vult-subscriber-metrics?tab=${tab}`),
      ...['mobile-subscriptions', 'mobile-access'].map((tab) => `/one-network-data?tab=${tab}&new=1`),
    ];
    for (const url of states) {
      await open(page, url, js, 200);
      if (url.includes('new=1')) await formOpen(page);
      await audit(page, url, found, js);
    }
    expectNoViolations(found);
  });

  test('audit trail: every tab and a record history', async ({ page, js }) => {
    const found: string[] = [];
    for (const url of [
      '/audit-trail?tab=versions',
      '/audit-trail?tab=versions&tableName=departments&recordId=1',
      '/audit-trail?tab=anomalies',
      '/audit-trail?tableName=users',
    ]) {
      await open(page, url, js, 200);
      await audit(page, url, found, js);
    }
    expectNoViolations(found);
  });

  test('backup screens: every tab, a selected backup and the confirmation steps', async ({ page, js, database }) => {
    const found: string[] = [];
    // Backups to list and select, one of each status (rows only: showing them needs no file); removed afterwards.
    const backups = await database.db
      .insertInto('backups')
      .values([
        {
          name: `a11y ${js ? 'js' : 'nojs'} backup`,
          description: 'a11y',
          type: 'manual',
          status: 'completed',
          error: null,
          tables: JSON.stringify(['actualRevenue']) as never,
          size: 2048,
          recordCount: 3,
        },
        {
          name: `a11y ${js ? 'js' : 'nojs'} failed`,
          description: null,
          type: 'scheduled',
          status: 'failed',
          error: 'a11y',
          tables: JSON.stringify(['companies']) as never,
          size: 0,
          recordCount: 0,
        },
        // In progress too: its status line has colours of its own (checked in both themes).
        {
          name: `a11y ${js ? 'js' : 'nojs'} running`,
          description: null,
          type: 'manual',
          status: 'in_progress',
          error: null,
          tables: JSON.stringify(['companies']) as never,
          size: 0,
          recordCount: 0,
        },
      ])
      .returning('id')
      .execute();
    const states = [
      ...['create', 'restore', 'export', 'backups'].map((tab) => `/backup-recovery?tab=${tab}`),
      `/backup-recovery?tab=restore&backup=${backups[0].id}`,
    ];
    try {
      for (const url of states) {
        await open(page, url, js, 200);
        await audit(page, url, found, js);
      }
      if (!js) {
        // Without JavaScript a restore and a delete first answer the server's confirmation step.
        await page.getByRole('button', { name: 'Restore Backup' }).click();
        await expect(page.getByTestId('confirm-restore')).toBeVisible();
        await audit(page, '/backup-recovery restore confirmation', found, js);
        await open(page, '/backup-recovery', js, 200);
        await page
          .locator('main')
          .getByRole('button', { name: /^Delete / })
          .first()
          .click();
        await expect(page.getByTestId('confirm-delete')).toBeVisible();
        await audit(page, '/backup-recovery delete confirmation', found, js);
      }
    } finally {
      await database.db
        .deleteFrom('backups')
        .where(
          'id',
          'in',
          backups.map((b) => b.id),
        )
        .execute();
    }
    expectNoViolations(found);
  });

  test('notifications: the page with every type and priority, and the bell pop-over', async ({
    page,
    js,
    database,
    owner,
  }) => {
    const found: string[] = [];
    const system = { db: database.db, actor: systemActor('worker'), meta: {}, runtime: noEngine() };
    const kinds = [
      ['info', 'low', 'system'],
      ['warning', 'medium', 'financial'],
      ['error', 'high', 'security'],
      ['success', 'critical', 'user'],
    ] as const;
    const ids: number[] = [];
    for (const [type, priority, category] of kinds) {
      const row = await notify(system, {
        type,
        priority,
        category,
        title: `a11y ${js ? 'js' : 'nojs'} ${type}`,
        message: `A ${priority} ${type} notification.`,
        actionUrl: '/profile',
        actionText: 'View profile',
        to: { userId: owner.id },
      });
      ids.push(row!.id);
    }
    // One read, so both emphases are checked.
    await database.db
      .insertInto('userNotificationSettings')
      .values({ userId: owner.id, notificationId: ids[0], isRead: true, readAt: new Date().toISOString() })
      .execute();
    try {
      for (const url of ['/notifications', '/notifications?tab=unread', '/notifications?tab=security']) {
        await open(page, url, js, 200);
        await audit(page, url, found, js);
      }
      if (js) {
        await open(page, '/profile', js, 200);
        await page.getByTestId('notification-bell').click();
        await expect(page.getByTestId('notification-panel').getByTestId('notification').first()).toBeVisible();
        await audit(page, 'notification bell pop-over', found, js);
        await page.keyboard.press('Escape');
      }
    } finally {
      await database.db.deleteFrom('notifications').where('id', 'in', ids).execute();
    }
    expectNoViolations(found);
  });

  test('API integration: every tab with rows, the add panels and a failed run', async ({ page, js, database }) => {
    const found: string[] = [];
    const tag = `a11y API ${js ? 'js' : 'nojs'}`;
    const db = database.db;
    const source = await db
      .insertInto('apiIntegrationSources')
      .values({ name: `${tag} source`, baseUrl: 'https://api.example.com', authType: 'bearer' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const endpoint = await db
      .insertInto('apiIntegrationEndpoints')
      .values({ sourceId: source.id, name: `${tag} endpoint`, endpoint: '/x', targetTable: 'budgets' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await db
      .insertInto('apiIntegrationSyncLogs')
      .values([
        {
          endpointId: endpoint.id,
          status: 'failed',
          startedAt: at,
          completedAt: at,
          requests: 3,
          responseTime: 6000,
          errorMessage: 'api.example.com answered 500',
        },
        {
          endpointId: endpoint.id,
          status: 'failed',
          startedAt: at,
          completedAt: at,
          requests: 1,
          responseTime: 7000,
          errorMessage: 'api.example.com answered 500',
        },
        {
          endpointId: endpoint.id,
          status: 'running',
          startedAt: at,
          completedAt: null,
          requests: 0,
          responseTime: null,
          errorMessage: null,
        },
      ])
      .execute();
    for (const url of [
      '/api-integrations',
      '/api-integrations?tab=performance',
      '/api-integrations?tab=sources',
      '/api-integrations?tab=sources&new=1',
      '/api-integrations?tab=endpoints',
      '/api-integrations?tab=endpoints&new=1',
      '/api-integrations?tab=credentials',
      '/api-integrations?tab=logs',
    ]) {
      await open(page, url, js, 200);
      await audit(page, url, found, js);
    }
    expectNoViolations(found);
  });

  test('system monitoring: every tab with rows, the Resolve form; the dashboard with every list and an alert', async ({
    page,
    js,
    database,
  }) => {
    const found: string[] = [];
    const tag = `a11y monitoring ${js ? 'js' : 'nojs'}`;
    const now = new Date().toISOString();
    const db = database.db;
    const errors = await db
      .insertInto('systemErrors')
      .values([
        {
          severity: 'critical',
          errorType: 'TypeError',
          message: `${tag} open`,
          endpoint: '/api/x/:id',
          method: 'GET',
          stack: 'TypeError: x\n    at y (z.ts:1:1)',
          fingerprint: `${tag} a`,
          firstOccurrence: now,
          lastOccurrence: now,
          affectedUsers: 2,
          occurrenceCount: 3,
          isResolved: false,
          resolvedAt: null,
          resolution: null,
        },
        {
          severity: 'low',
          errorType: 'job_failed',
          message: `${tag} resolved`,
          endpoint: 'job:x',
          method: 'JOB',
          stack: null,
          fingerprint: `${tag} b`,
          firstOccurrence: now,
          lastOccurrence: now,
          affectedUsers: 0,
          occurrenceCount: 1,
          isResolved: true,
          resolvedAt: now,
          resolution: 'Fixed',
        },
      ])
      .returning('id')
      .execute();
    const actions = await db
      .insertInto('recoveryActions')
      .values([
        {
          actionType: `${tag} cleanup`,
          status: 'completed',
          description: 'Cleaned',
          result: 'ok',
          createdAt: now,
          updatedAt: now,
        },
        {
          actionType: `${tag} retry`,
          status: 'failed',
          description: null,
          result: 'no',
          createdAt: now,
          updatedAt: now,
        },
        {
          actionType: `${tag} running`,
          status: 'executing',
          description: null,
          result: null,
          createdAt: now,
          updatedAt: now,
        },
      ])
      .returning('id')
      .execute();
    const anomaly = await db
      .insertInto('securityAnomalies')
      .values({
        userId: null,
        username: tag,
        anomalyType: 'bulk_delete',
        deleteCount: 12,
        windowStart: now,
        windowEnd: now,
        description: `${tag} bulk delete`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      for (const url of [
        '/system-monitoring',
        `/system-monitoring?tab=errors&resolve=${errors[0].id}`,
        '/system-monitoring?tab=recovery',
        '/system-monitoring?tab=metrics',
        '/system-settings',
        '/',
      ]) {
        await open(page, url, js, 200);
        if (url.includes('resolve=')) await formOpen(page);
        await audit(page, url, found, js);
      }
    } finally {
      await db
        .deleteFrom('systemErrors')
        .where(
          'id',
          'in',
          errors.map((e) => e.id),
        )
        .execute();
      await db
        .deleteFrom('recoveryActions')
        .where(
          'id',
          'in',
          actions.map((a) => a.id),
        )
        .execute();
      await db.deleteFrom('securityAnomalies').where('id', '=', anomaly.id).execute();
    }
    expectNoViolations(found);
  });

  test('editor screens and API documentation: every tab of My Dashboard, Editor Statistics and the documentation', async ({
    page,
    js,
    database,
  }) => {
    const found: string[] = [];
    // Activity to show: an expense entered by this run's owner (the owner may open both screens).
    const { id: categoryId, departmentId } = await database.db
      .selectFrom('expenseCategories')
      .select(['id', 'departmentId'])
      .where('companyId', '=', COMPANY.vult)
      .where('departmentId', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await apiPost(page, '/api/actual-expenses', {
      departmentId,
      categoryId,
      amount: 12,
      expenseDate: new Date().toISOString().slice(0, 10),
      description: `a11y editor ${js ? 'js' : 'nojs'}`,
    });
    const urls = [
      ...['activity', 'performance', 'insights', 'goals'].map((tab) => `/editor-dashboard?tab=${tab}`),
      ...['overview', 'performance', 'activity', 'analytics'].map((tab) => `/editor-stats?tab=${tab}`),
      ...['filters', 'endpoints', 'schemas', 'authentication'].map((tab) => `/api-documentation?tab=${tab}`),
    ];
    for (const url of urls) {
      await open(page, url, js, 200);
      await audit(page, url, found, js);
    }
    expectNoViolations(found);
  });

  test('AI analytics: every tab with results, the budget prompt and a chat answer', async ({ page, js, database }) => {
    const found: string[] = [];
    const tag = `a11y AI ${js ? 'js' : 'nojs'}`;
    const departmentId = (
      await database.db.selectFrom('departments').select('id').orderBy('id').executeTakeFirstOrThrow()
    ).id;
    const categoryId = (
      await database.db
        .insertInto('expenseCategories')
        .values({ companyId: COMPANY.spark, departmentId, name: tag })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const today = new Date().toISOString().slice(0, 10);
    const month = (back: number) =>
      new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 - back, 5)).toISOString().slice(0, 10);
    await database.db
      .insertInto('actualExpenses')
      .values([
        ...Array.from({ length: 8 }, (_, i) => ({
          companyId: COMPANY.spark,
          departmentId,
          categoryId,
          amountCents: 20_000 + 1_000 * i,
          expenseDate: month(8 - i),
          description: tag,
          vendor: tag,
        })),
        {
          companyId: COMPANY.spark,
          departmentId,
          categoryId,
          amountCents: 4_000_000,
          expenseDate: today,
          description: tag,
          vendor: tag,
        },
      ])
      .execute();
    await database.db
      .insertInto('budgets')
      .values({
        companyId: COMPANY.spark,
        departmentId,
        categoryId,
        amountCents: 50_000,
        period: 'annual',
        startDate: `${today.slice(0, 4)}-01-01`,
        endDate: `${today.slice(0, 4)}-12-31`,
        description: tag,
        status: 'active',
      })
      .execute();
    for (const url of [
      `/ai-analytics?tab=predictions&companyId=${COMPANY.spark}&categoryId=${categoryId}`,
      `/ai-analytics?tab=anomalies&companyId=${COMPANY.spark}&lookbackDays=7&run=1`,
      '/ai-analytics?tab=budget',
      `/ai-analytics?tab=budget&companyId=${COMPANY.spark}`,
      `/ai-analytics?tab=insights&companyId=${COMPANY.spark}`,
    ]) {
      await open(page, url, js, 200);
      await audit(page, url, found, js);
    }
    await open(page, '/ai-analytics?tab=chat', js, 200);
    await page.getByLabel('Your question').fill('Top categories this year');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('chat-assistant')).toBeVisible();
    await audit(page, '/ai-analytics chat answer', found, js);
    expectNoViolations(found);
  });

  test('two-factor: the setup with its QR code, the recovery codes, the manage form and the second sign-in step', async ({
    page,
    js,
    database,
  }) => {
    const account = await signedInAccount(database.db, 'editor', 'light', `2fa${js ? 'js' : 'nojs'}`);
    await page.context().clearCookies();
    await page.context().addCookies(account.state.cookies);
    const found: string[] = [];
    await open(page, '/two-factor', js, 200);
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await expect(page.getByTestId('two-factor-qr')).toBeVisible();
    await audit(page, '/two-factor setup', found, js);
    // A wrong code: the error next to the field.
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await expect(page.getByText('Invalid code')).toBeVisible();
    await audit(page, '/two-factor setup with an error', found, js);
    const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
    await page.getByLabel('Authentication code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
    await audit(page, '/two-factor recovery codes and the manage form', found, js);
    // The second step of a later sign-in, from a browser with no session.
    await page.context().clearCookies();
    await open(page, '/login', js, 200);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/login\/two-factor/);
    await waitForHydration(page, js);
    await audit(page, '/login/two-factor', found, js, { dark: false });
    expectNoViolations(found);
  });

  test('a CSV import: the upload, the check with its columns, preview and invalid rows, and the outcome', async ({
    page,
    js,
    database,
  }) => {
    const account = await signedInAccount(database.db, 'admin', 'light', `import${js ? 'js' : 'nojs'}`);
    await page.context().clearCookies();
    await page.context().addCookies(account.state.cookies);
    const found: string[] = [];
    await open(page, '/imports?table=actual-revenues', js, 200);
    await audit(page, '/imports upload', found, js);
    // Each project's own file: the same bytes twice are refused as imported before.
    const source = `A11y ${js ? 'js' : 'no-js'} ${Date.now()}`;
    const file = [
      'Company,Source,Amount,Revenue Date',
      `Vult,${source},10,2026-04-01`,
      `Vult,${source},-1,2026-04-01`,
    ].join('\r\n');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'a11y.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await expect(page.getByTestId('import-errors')).toBeVisible();
    await waitForHydration(page, js);
    await audit(page, '/imports check', found, js);
    await page.getByRole('button', { name: 'Import valid rows' }).click();
    await expect(page.getByTestId('import-status')).toContainText('Imported');
    await waitForHydration(page, js);
    await audit(page, '/imports outcome', found, js);
    expectNoViolations(found);
  });

  test('the 403 screen', async ({ page, js, database }) => {
    const viewer = await signedInAccount(database.db, 'viewer', 'light', `403${js ? 'js' : 'nojs'}`);
    await page.context().clearCookies();
    await page.context().addCookies(viewer.state.cookies);
    const found: string[] = [];
    await open(page, '/user-management', js, 403);
    await expect(page.getByTestId('forbidden')).toBeVisible();
    await audit(page, '403 /user-management', found, js);
    expectNoViolations(found);
  });
});

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('landing page, login page and the signed-out 404', async ({ page, js }) => {
    const found: string[] = [];
    for (const [url, status] of [
      ['/', 200],
      [NOT_FOUND, 404],
      ['/login?redirectTo=%2Fsettings', 200],
    ] as const) {
      await open(page, url, js, status);
      // Signed out there is no theme to choose: the light one only.
      await audit(page, `signed out ${url}`, found, js, { dark: false });
    }
    // A failed sign-in (errors next to the fields and the form's alert).
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForLoadState('load');
    await audit(page, 'signed out /login with errors', found, js, { dark: false });
    expectNoViolations(found);
  });
});
